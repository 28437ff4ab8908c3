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
 */
public record Run(String namespace, String pod, String container, String image, String node, GpuModel model,
        List<Integer> gpus, int rank, int replicas, int restarts, Duration runTime, Instant start, double scale,
        long seed, long memoryLimitBytes) {

    /** The wall-clock time of a moment of the run (what the line printed then says). */
    public Instant timeAt(Duration offset) {
        return start.plusNanos((long) (offset.toNanos() / scale));
    }

    /** The same run, its lines stamped from another start (the moment a signal arrives). */
    public Run withStart(Instant s) {
        return new Run(namespace, pod, container, image, node, model, gpus, rank, replicas, restarts, runTime, s, scale,
                seed, memoryLimitBytes);
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
