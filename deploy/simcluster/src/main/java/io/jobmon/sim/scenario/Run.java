package io.jobmon.sim.scenario;

import io.jobmon.sim.cluster.GpuModel;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;

/**
 * One start of a container, as its scenario sees it.
 *
 * @param gpus the node's GPU indexes the pod holds
 * @param rank the pod's completion index (0 for a single pod)
 * @param replicas the pods of its Job
 * @param restarts how often the container restarted before
 * @param runTime how long a healthy run of this job lasts (sim time)
 * @param start when the container starts (wall clock)
 * @param scale sim seconds per wall second: a line {@code d} into the run is printed at {@code start + d / scale}
 * @param memoryLimitBytes the container's memory limit (the cgroup the OOM killer acts in)
 * @param memcg the container's memory cgroup as the kernel prints it ({@link #memcg(String, String, String)}), or
 *        null before the container exists
 */
public record Run(String namespace, String pod, String container, String image, String node, GpuModel model,
        List<Integer> gpus, int rank, int replicas, int restarts, Duration runTime, Instant start, double scale,
        long seed, long memoryLimitBytes, String memcg) {

    /**
     * A container's cgroup as the kubelet makes it with the systemd cgroup driver on cgroup v2 (the sim's nodes run
     * Ubuntu 22.04, kernel 5.15, containerd 1.7): {@code /kubepods.slice/kubepods-burstable.slice/
     * kubepods-burstable-pod<uid, '-' as '_'>.slice/cri-containerd-<id>.scope}; a Guaranteed pod has no QoS level.
     */
    public static String memcg(String podUid, String qosClass, String containerId) {
        if (podUid == null || containerId == null) {
            return null;
        }
        String uid = podUid.replace('-', '_');
        String qos = qosClass == null || qosClass.equals("Guaranteed") ? "" : qosClass.toLowerCase(java.util.Locale.ROOT);
        String pod = qos.isEmpty() ? "/kubepods.slice/kubepods-pod" + uid + ".slice"
                : "/kubepods.slice/kubepods-" + qos + ".slice/kubepods-" + qos + "-pod" + uid + ".slice";
        return pod + "/cri-containerd-" + containerId + ".scope";
    }

    /** The wall-clock time of a moment of the run (what the line printed then says). */
    public Instant timeAt(Duration offset) {
        return start.plusNanos((long) (offset.toNanos() / scale));
    }

    /** The same run, its lines stamped from another start (the moment a signal arrives). */
    public Run withStart(Instant s) {
        return new Run(namespace, pod, container, image, node, model, gpus, rank, replicas, restarts, runTime, s, scale,
                seed, memoryLimitBytes, memcg);
    }

    /** Ranks per pod: one per GPU (at least one). */
    public int localRanks() {
        return Math.max(1, gpus.size());
    }

    public int worldSize() {
        return localRanks() * Math.max(1, replicas);
    }

    public Random random() {
        return new Random(seed);
    }

    /** Device memory a training run holds per GPU: about 80 % of it. */
    public int trainingMemoryMiB() {
        return (int) (model.memoryMiB() * 0.8);
    }
}
