package io.jobmon.logs.attribution;

import java.util.List;
import java.util.Set;

/**
 * What tells a job's lines among a node's: its pods (from its snapshots; UIDs and container ids from the shippers'
 * records of its own lines) and the GPUs they held (from {@code jobmon.gpu.holdings}).
 */
public record JobIdentity(List<Pod> pods, List<Holding> holdings) {

    public static final JobIdentity NONE = new JobIdentity(List.of(), List.of());

    /**
     * @param uids the pod's UIDs seen (a pod re-created under the same name has a new one), lower case with dashes
     * @param containerIds its containers' runtime ids (64 hex, lower case), every restart's
     */
    public record Pod(String namespace, String name, Set<String> uids, Set<String> containerIds) {
    }

    /**
     * A GPU a pod of the job held on a node from {@code from} to {@code to} (epoch nanoseconds; {@code to}
     * Long.MAX_VALUE while held).
     *
     * @param busId {@link PciBusId#normal} form, or null
     */
    public record Holding(String node, String gpu, String uuid, String busId, String namespace, String pod, long from,
            long to) {

        /** How the API names the GPU: its UUID, else its bus id, else its index. */
        public String label() {
            return uuid != null ? uuid : busId != null ? busId : gpu;
        }
    }
}
