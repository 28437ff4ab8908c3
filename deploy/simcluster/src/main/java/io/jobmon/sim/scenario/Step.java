package io.jobmon.sim.scenario;

import io.jobmon.sim.telemetry.GpuLoad;

/** One thing a running container (or its node) does at a moment of a {@link Script}. */
public sealed interface Step {

    /** A line the container writes; {@code stream} is {@code stdout} or {@code stderr}. */
    record Log(String stream, String line) implements Step {
    }

    /**
     * A line of the node's journal: the kernel ({@code transport} {@code kernel}), the kubelet or containerd
     * ({@code journal}, with their unit and pid).
     */
    record Journal(String identifier, String unit, int pid, String transport, int priority, String message)
            implements Step {
    }

    /** A line of the node's NVIDIA device plugin (its container log, in klog form). */
    record DevicePluginLog(String line) implements Step {
    }

    /** The pod's GPUs run this load from now on. */
    record Load(GpuLoad load) implements Step {
    }

    /** The driver reports an Xid on the pod's {@code gpu}-th GPU; with a double-bit ECC error when {@code dbe}. */
    record GpuFault(int gpu, int xid, boolean dbe, boolean unhealthy) implements Step {
    }

    /** The container's resident host memory from now on (node_memory_MemAvailable_bytes follows). */
    record HostMemory(long bytes) implements Step {
    }

    /** The container writes this many bytes more to the node's root disk (ephemeral storage). */
    record DiskWrite(long bytes) implements Step {
    }

    /** The share of the node's CPUs the container keeps busy from now on. */
    record Cpu(double fraction) implements Step {
    }

    /** Bytes per second the container moves over the node's network from now on (NCCL, data reads). */
    record Network(double bytesPerSecond) implements Step {
    }

    /** The container ends. */
    record Exit(int code, String reason, String message) implements Step {
    }

    /** The node stops answering: its kubelet posts no status, its exporters and log shipper go quiet. */
    record LoseNode() implements Step {
    }

    /** The kubelet evicts the pod because the node runs low on ephemeral storage. */
    record EvictForDisk() implements Step {
    }

    /** A pod of higher priority that needs this node's GPUs arrives (and preempts this one). */
    record HigherPriorityPod() implements Step {
    }
}
