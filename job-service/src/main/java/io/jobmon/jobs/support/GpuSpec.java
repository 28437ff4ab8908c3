package io.jobmon.jobs.support;

/** The GPU column of the job list: the GPUs the whole job holds, e.g. {@code 2*A800} (2 replicas of 1 A800). */
public final class GpuSpec {

    private GpuSpec() {
    }

    /** {@code <total GPUs>*<type>}; {@code null} for a job without GPUs; the type is omitted when unknown. */
    public static String format(int replicas, int gpusPerReplica, String gpuType) {
        int total = Math.max(0, replicas) * Math.max(0, gpusPerReplica);
        if (total == 0) {
            return null;
        }
        return gpuType == null || gpuType.isBlank() ? String.valueOf(total) : total + "*" + gpuType;
    }
}
