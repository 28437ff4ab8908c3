package io.jobmon.sim.cluster;

/**
 * One simulated GPU node: 128 CPUs, 1 TiB of memory and 3.5 TiB of local disk beside its GPUs.
 *
 * @param pool the pool's name (the model's short name in lower case)
 */
public record NodeSpec(String name, String pool, GpuModel model, int gpus) {

    public static final long CPU_MILLIS = 128_000;
    public static final long MEMORY_BYTES = 1024L << 30;
    public static final long DISK_BYTES = 3584L << 30;
    public static final int MAX_PODS = 110;
}
