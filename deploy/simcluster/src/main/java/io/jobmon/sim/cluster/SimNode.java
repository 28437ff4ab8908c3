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

    /** The OS, images and logs on the root disk. */
    static final long BASE_DISK_USED = 210L << 30;
    /** The system's own resident memory (kubelet, containerd, page tables...). */
    static final long BASE_MEMORY_USED = 12L << 30;

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
    private volatile long diskUsedBytes = BASE_DISK_USED;
    /** What each pod running here uses: CPU share, resident memory, network, bytes it wrote to the root disk. */
    private final java.util.Map<String, double[]> usage = new java.util.concurrent.ConcurrentHashMap<>();
    /** Per pod, since its first figure: CPU core-seconds, bytes received and sent (what its cgroups count). */
    private final java.util.Map<String, Counter[]> meters = new java.util.concurrent.ConcurrentHashMap<>();
    /** Per pod, the cores its CFS quota lets it use (its containers' CPU limits). */
    private final java.util.Map<String, Double> cpuLimits = new java.util.concurrent.ConcurrentHashMap<>();
    /** CPU seconds spent busy and idle, summed over all CPUs (node_cpu_seconds_total before its split). */
    private final Counter cpuBusySeconds;
    private final Counter cpuIdleSeconds;
    private final Counter networkReceivedBytes;
    private final Counter networkSentBytes;
    /** The InfiniBand HCAs' data (the pods' NCCL traffic between nodes), summed over the node's ports. */
    private final Counter infinibandReceivedBytes;
    private final Counter infinibandSentBytes;
    private int podCount;
    private volatile long oomKills;
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
        this.infinibandReceivedBytes = new Counter(0, 1_200, bootTime);
        this.infinibandSentBytes = new Counter(0, 1_100, bootTime);
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

    /** The kernel OOM-killed a process here (node_vmstat_oom_kill). */
    public void oomKilled() {
        oomKills++;
    }

    public long oomKills() {
        return oomKills;
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
        return BASE_MEMORY_USED + memoryUsedBytes;
    }

    public long diskUsedBytes() {
        return diskUsedBytes;
    }

    /** Index of a pod's figure in {@link #usage}. */
    private static final int CPU = 0;
    private static final int MEMORY = 1;
    private static final int NETWORK = 2;
    private static final int DISK = 3;

    public void podCpu(String pod, double fraction, Instant at) {
        use(pod, CPU, fraction, at);
    }

    public void podMemory(String pod, long bytes, Instant at) {
        use(pod, MEMORY, bytes, at);
    }

    public void podNetwork(String pod, double bytesPerSecond, Instant at) {
        use(pod, NETWORK, bytesPerSecond, at);
    }

    /** The pod wrote more bytes to its ephemeral storage on the root disk. */
    public void podWrote(String pod, long bytes, Instant at) {
        double[] u = usage.computeIfAbsent(pod, k -> new double[4]);
        use(pod, DISK, u[DISK] + bytes, at);
    }

    /** Bytes of ephemeral storage the pod has written. */
    public long podDisk(String pod) {
        double[] u = usage.get(pod);
        return u == null ? 0 : (long) u[DISK];
    }

    /** The pod is gone from the node: its processes and its ephemeral storage with it. */
    public void podGone(String pod, Instant at) {
        usage.remove(pod);
        meters.remove(pod);
        cpuLimits.remove(pod);
        recompute(at);
    }

    private void use(String pod, int what, double value, Instant at) {
        double[] u = usage.computeIfAbsent(pod, k -> new double[4]);
        u[what] = value;
        Counter[] m = meters.computeIfAbsent(pod, k -> new Counter[] {new Counter(0, 0, at), new Counter(0, 0, at),
                new Counter(0, 0, at)});
        m[0].rate(Math.min(u[CPU] * (NodeSpec.CPU_MILLIS / 1000), cpuLimits.getOrDefault(pod, Double.MAX_VALUE)), at);
        m[1].rate(u[NETWORK], at);
        m[2].rate(u[NETWORK] * 0.98, at);
        recompute(at);
    }

    /** The pod's CPU limit (its CFS quota, in cores): its CPU seconds grow no faster (throttled). */
    public void podCpuLimit(String pod, double cores) {
        cpuLimits.put(pod, cores);
    }

    /** What a pod running here has used so far (zeros for a pod without figures), as its cgroups count it. */
    public record PodFigures(double cpuSeconds, long memoryBytes, double receivedBytes, double sentBytes,
            long writtenBytes) {
        public static final PodFigures NONE = new PodFigures(0, 0, 0, 0, 0);
    }

    public PodFigures pod(String pod, Instant at) {
        double[] u = usage.get(pod);
        Counter[] m = meters.get(pod);
        if (u == null || m == null) {
            return PodFigures.NONE;
        }
        return new PodFigures(m[0].total(at), (long) u[MEMORY], m[1].total(at), m[2].total(at), (long) u[DISK]);
    }

    private void recompute(Instant at) {
        double cpu = 0.02;
        double mem = 0;
        double net = 0;
        double disk = 0;
        for (double[] u : usage.values()) {
            cpu += u[CPU];
            mem += u[MEMORY];
            net += u[NETWORK];
            disk += u[DISK];
        }
        int cpus = (int) (NodeSpec.CPU_MILLIS / 1000);
        double f = Math.max(0.01, Math.min(1, cpu));
        cpuBusySeconds.rate(cpus * f, at);
        cpuIdleSeconds.rate(cpus * (1 - f), at);
        networkReceivedBytes.rate(40_000 + net, at);
        networkSentBytes.rate(35_000 + net, at);
        infinibandReceivedBytes.rate(1_200 + net, at);
        infinibandSentBytes.rate(1_100 + net * 0.98, at);
        memoryUsedBytes = (long) mem;
        diskUsedBytes = BASE_DISK_USED + (long) disk;
    }

    public double cpuBusySeconds(Instant at) {
        return cpuBusySeconds.total(at);
    }

    public double cpuIdleSeconds(Instant at) {
        return cpuIdleSeconds.total(at);
    }

    public double networkReceivedBytes(Instant at) {
        return networkReceivedBytes.total(at);
    }

    public double networkSentBytes(Instant at) {
        return networkSentBytes.total(at);
    }

    public double infinibandReceivedBytes(Instant at) {
        return infinibandReceivedBytes.total(at);
    }

    public double infinibandSentBytes(Instant at) {
        return infinibandSentBytes.total(at);
    }
}
