package io.jobmon.sim.cluster;

import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * The sim's own view of one node: hardware, whether its kubelet reaches the API, what is allocated on it, the images
 * it has pulled, and the host figures its node_exporter reads. Changed on the sim's thread only (the exporters read
 * volatile fields).
 */
public final class SimNode {

    private final NodeSpec spec;
    private final List<GpuDevice> gpus;
    private final int number;
    private final Instant bootTime;
    private final Set<String> images = new HashSet<>();
    private volatile boolean reachable = true;
    private volatile boolean diskPressure;
    private volatile long cpuRequestedMillis;
    private volatile long memoryRequestedBytes;
    private volatile long memoryUsedBytes;
    private volatile long diskUsedBytes = 210L << 30;
    /** CPU seconds spent busy and idle, summed over all CPUs (node_cpu_seconds_total before its split). */
    private final Counter cpuBusySeconds;
    private final Counter cpuIdleSeconds;
    private final Counter networkReceivedBytes;
    private final Counter networkSentBytes;
    private int podCount;
    private int nextPodIp = 2;

    SimNode(NodeSpec spec, int number, Instant bootTime) {
        this.spec = spec;
        this.number = number;
        this.bootTime = bootTime;
        int cpus = (int) (NodeSpec.CPU_MILLIS / 1000);
        this.cpuBusySeconds = new Counter(0, cpus * 0.02, bootTime);
        this.cpuIdleSeconds = new Counter(0, cpus * 0.98, bootTime);
        this.networkReceivedBytes = new Counter(0, 40_000, bootTime);
        this.networkSentBytes = new Counter(0, 35_000, bootTime);
        this.gpus = IntStream.range(0, spec.gpus()).mapToObj(i -> new GpuDevice(spec.name(), i, spec.model())).toList();
    }

    public String name() {
        return spec.name();
    }

    public NodeSpec spec() {
        return spec;
    }

    public List<GpuDevice> gpus() {
        return gpus;
    }

    public Instant bootTime() {
        return bootTime;
    }

    /** The node's pod CIDR is 10.244.{number}.0/24. */
    public String podCidr() {
        return "10.244." + number + ".0/24";
    }

    public String nextPodIp() {
        String ip = "10.244." + number + "." + nextPodIp;
        nextPodIp = nextPodIp >= 254 ? 2 : nextPodIp + 1;
        return ip;
    }

    /** The kubelet's status reaches the API server. */
    public boolean reachable() {
        return reachable;
    }

    public void reachable(boolean r) {
        reachable = r;
    }

    public boolean diskPressure() {
        return diskPressure;
    }

    public void diskPressure(boolean p) {
        diskPressure = p;
    }

    /** Whether the image is on the node (pulled before). */
    public boolean hasImage(String image) {
        return images.contains(image);
    }

    public void pulled(String image) {
        images.add(image);
    }

    public int podCount() {
        return podCount;
    }

    public long cpuRequestedMillis() {
        return cpuRequestedMillis;
    }

    public long memoryRequestedBytes() {
        return memoryRequestedBytes;
    }

    void request(long cpuMillis, long memoryBytes, int pods) {
        cpuRequestedMillis += cpuMillis;
        memoryRequestedBytes += memoryBytes;
        podCount += pods;
    }

    public long memoryUsedBytes() {
        return memoryUsedBytes;
    }

    public void memoryUsed(long bytes) {
        memoryUsedBytes = Math.max(0, bytes);
    }

    public long diskUsedBytes() {
        return diskUsedBytes;
    }

    public void diskUsed(long bytes) {
        diskUsedBytes = Math.max(0, bytes);
    }

    /** From now on this share of the node's CPUs is busy. */
    public void cpuBusy(double fraction, Instant at) {
        double f = Math.max(0.01, Math.min(1, fraction));
        int cpus = (int) (NodeSpec.CPU_MILLIS / 1000);
        cpuBusySeconds.rate(cpus * f, at);
        cpuIdleSeconds.rate(cpus * (1 - f), at);
    }

    public double cpuBusySeconds(Instant at) {
        return cpuBusySeconds.total(at);
    }

    public double cpuIdleSeconds(Instant at) {
        return cpuIdleSeconds.total(at);
    }

    /** From now on the node's NIC moves this many bytes per second each way (NCCL traffic, data reads). */
    public void network(double bytesPerSecond, Instant at) {
        networkReceivedBytes.rate(40_000 + bytesPerSecond, at);
        networkSentBytes.rate(35_000 + bytesPerSecond, at);
    }

    public double networkReceivedBytes(Instant at) {
        return networkReceivedBytes.total(at);
    }

    public double networkSentBytes(Instant at) {
        return networkSentBytes.total(at);
    }
}
