package io.jobmon.sim.telemetry;

import io.jobmon.sim.cluster.SimNode;
import io.jobmon.sim.cluster.SimNode.PodFigures;
import io.jobmon.sim.telemetry.CadvisorPods.Life;
import io.jobmon.sim.telemetry.CadvisorPods.PodCgroup;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A node's kubelet {@code /metrics/cadvisor}, as the kubelet's embedded cAdvisor (v0.49+, kubelet 1.31) writes it
 * through client_golang: families sorted by name with cAdvisor's HELP texts, label pairs sorted by name
 * ({@code container}, {@code id}, {@code image}, {@code name}, {@code namespace}, {@code pod}, plus {@code cpu},
 * {@code device} or {@code interface}), the usage figures with the time of their sample in ms, the spec figures
 * without. Per pod: its pod cgroup ({@code container=""}, {@code image=""}, {@code name=""}), its sandbox
 * ({@code container="POD"}, the pause image, which alone carries the network counters: in cAdvisor network counters
 * are the network namespace's, the pod sandbox's, not a container's) and each container ({@code name} = its
 * containerd id). Host-network pods have no network series.
 */
public final class Cadvisor {

    static final String PAUSE_IMAGE = "registry.k8s.io/pause:3.10";
    private static final long MIB = 1L << 20;
    /** A container's working set before its program has grown (the runtime, the interpreter). */
    private static final long BASE_MEMORY = 24 * MIB;
    private static final long PERIOD_US = 100_000;

    private Cadvisor() {
    }

    public static String render(SimNode node, List<PodCgroup> pods, Instant now) {
        Families out = new Families(now.toEpochMilli());
        for (PodCgroup p : pods) {
            if (p.ended() != null && p.ended().plus(CadvisorPods.HOUSEKEEPING).isBefore(now)) {
                continue;
            }
            PodFigures pod = node.pod(p.key(), now);
            long podMemory = 0;
            double systemCpu = 0;
            long limitSum = 0;
            long quotaSum = 0;
            boolean allLimited = !p.containers().isEmpty();
            boolean allQuota = allLimited;
            for (Life c : p.containers()) {
                limitSum += c.memoryLimit();
                quotaSum += c.cpuQuota();
                allLimited &= c.memoryLimit() > 0;
                allQuota &= c.cpuQuota() > 0;
                if (c.ended() != null && c.ended().plus(CadvisorPods.HOUSEKEEPING).isBefore(now)) {
                    continue;
                }
                Map<String, String> l = labels(c.name(), p.cgroup() + "/cri-containerd-" + c.id() + ".scope",
                        c.image(), c.id(), p);
                double cpu;
                long memory;
                long written;
                if (p.hostNetwork()) {
                    double[] steady = SystemLoad.of(c.name());
                    cpu = steady[0] * Math.max(0, now.getEpochSecond() - c.started().getEpochSecond());
                    systemCpu += cpu;
                    memory = (long) steady[1];
                    written = 0;
                } else if (c.ended() != null) {
                    cpu = c.last().cpuSeconds();
                    memory = c.oomKilled() && c.memoryLimit() > 0 ? c.memoryLimit() : BASE_MEMORY;
                    written = c.last().writtenBytes();
                } else {
                    cpu = pod.cpuSeconds() - c.base().cpuSeconds();
                    memory = Math.max(BASE_MEMORY, pod.memoryBytes());
                    written = pod.writtenBytes() - c.base().writtenBytes();
                }
                memory = c.memoryLimit() > 0 ? Math.min(memory, c.memoryLimit()) : memory;
                podMemory += c.ended() == null ? memory : 0;
                usage(out, l, cpu, memory, c.memoryLimit(), c.oomKilled() ? 1 : 0);
                spec(out, l, c.memoryLimit(), c.cpuQuota(), c.started());
                Map<String, String> fs = with(l, "device", NodeExporter.ROOT_DEVICE);
                out.sample("container_fs_reads_bytes_total", fs, 220 * MIB + Math.floor(cpu * 262_144), true);
                out.sample("container_fs_writes_bytes_total", fs, Math.max(0, written), true);
                out.sample("container_fs_usage_bytes", fs, Math.max(0, written) + 36_864, true);
            }
            Map<String, String> podLabels = labels("", p.cgroup(), "", "", p);
            double podCpu = p.hostNetwork() ? systemCpu : pod.cpuSeconds();
            double age = Math.max(0, now.getEpochSecond() - p.started().getEpochSecond());
            usage(out, podLabels, podCpu + age * 2e-5, podMemory + 400 * 1024, allLimited ? limitSum : 0, p.oomKills());
            spec(out, podLabels, allLimited ? limitSum : 0, allQuota ? quotaSum : 0, p.started());
            Map<String, String> sandbox = labels("POD", p.cgroup() + "/cri-containerd-" + p.sandbox() + ".scope",
                    PAUSE_IMAGE, p.sandbox(), p);
            usage(out, sandbox, age * 2e-5, 400 * 1024, 0, 0);
            spec(out, sandbox, 0, 0, p.started());
            if (!p.hostNetwork()) {
                Map<String, String> eth0 = with(sandbox, "interface", "eth0");
                out.sample("container_network_receive_bytes_total", eth0, Math.floor(pod.receivedBytes() + age * 180), true);
                out.sample("container_network_transmit_bytes_total", eth0, Math.floor(pod.sentBytes() + age * 150), true);
            }
        }
        return out.text();
    }

    private static void usage(Families out, Map<String, String> l, double cpu, long workingSet, long limit, int ooms) {
        long cache = 16 * MIB + workingSet / 50;
        long usage = limit > 0 ? Math.min(limit, workingSet + cache) : workingSet + cache;
        out.sample("container_cpu_usage_seconds_total", with(l, "cpu", "total"), Math.round(cpu * 1e6) / 1e6, true);
        out.sample("container_memory_working_set_bytes", l, workingSet, true);
        out.sample("container_memory_rss", l, Math.round(workingSet * 0.96), true);
        out.sample("container_memory_usage_bytes", l, usage, true);
        out.sample("container_oom_events_total", l, ooms, true);
    }

    private static void spec(Families out, Map<String, String> l, long memoryLimit, long cpuQuota, Instant started) {
        out.sample("container_spec_memory_limit_bytes", l, memoryLimit, false);
        out.sample("container_spec_cpu_period", l, PERIOD_US, false);
        if (cpuQuota > 0) {
            out.sample("container_spec_cpu_quota", l, cpuQuota, false);
        }
        out.sample("container_start_time_seconds", l, started.getEpochSecond(), false);
    }

    private static Map<String, String> labels(String container, String id, String image, String name, PodCgroup p) {
        Map<String, String> l = new TreeMap<>();
        l.put("container", container);
        l.put("id", id);
        l.put("image", image);
        l.put("name", name);
        l.put("namespace", p.namespace());
        l.put("pod", p.name());
        return l;
    }

    private static Map<String, String> with(Map<String, String> l, String key, String value) {
        Map<String, String> m = new TreeMap<>(l);
        m.put(key, value);
        return m;
    }

    /** The families of one exposition: HELP and TYPE as cAdvisor writes them, samples sorted by their labels. */
    private static final class Families {
        private static final Map<String, String[]> META = Map.ofEntries(
                Map.entry("container_cpu_usage_seconds_total", new String[] {"counter", "Cumulative cpu time consumed in seconds."}),
                Map.entry("container_fs_reads_bytes_total", new String[] {"counter", "Cumulative count of bytes read"}),
                Map.entry("container_fs_usage_bytes", new String[] {"gauge", "Number of bytes that are consumed by the container on this filesystem."}),
                Map.entry("container_fs_writes_bytes_total", new String[] {"counter", "Cumulative count of bytes written"}),
                Map.entry("container_memory_rss", new String[] {"gauge", "Size of RSS in bytes."}),
                Map.entry("container_memory_usage_bytes", new String[] {"gauge", "Current memory usage in bytes, including all memory regardless of when it was accessed"}),
                Map.entry("container_memory_working_set_bytes", new String[] {"gauge", "Current working set in bytes."}),
                Map.entry("container_network_receive_bytes_total", new String[] {"counter", "Cumulative count of bytes received"}),
                Map.entry("container_network_transmit_bytes_total", new String[] {"counter", "Cumulative count of bytes transmitted"}),
                Map.entry("container_oom_events_total", new String[] {"counter", "Count of out of memory events observed for the container"}),
                Map.entry("container_spec_cpu_period", new String[] {"gauge", "CPU period of the container."}),
                Map.entry("container_spec_cpu_quota", new String[] {"gauge", "CPU quota of the container."}),
                Map.entry("container_spec_memory_limit_bytes", new String[] {"gauge", "Memory limit for the container."}),
                Map.entry("container_start_time_seconds", new String[] {"gauge", "Start time of the container since unix epoch in seconds."}));

        private final Map<String, Map<String, String>> families = new TreeMap<>();
        private final long timestampMs;

        Families(long timestampMs) {
            this.timestampMs = timestampMs;
        }

        void sample(String name, Map<String, String> labels, double value, boolean stamped) {
            StringBuilder l = new StringBuilder();
            labels.forEach((k, v) -> l.append(l.length() == 0 ? "" : ",").append(k).append("=\"")
                    .append(Exposition.escape(v)).append('"'));
            String line = name + "{" + l + "} " + Exposition.goFloat(value) + (stamped ? " " + timestampMs : "");
            families.computeIfAbsent(name, k -> new TreeMap<>()).put(l.toString(), line);
        }

        String text() {
            StringBuilder out = new StringBuilder(32_768);
            families.forEach((name, lines) -> {
                String[] meta = META.get(name);
                out.append("# HELP ").append(name).append(' ').append(meta[1]).append('\n');
                out.append("# TYPE ").append(name).append(' ').append(meta[0]).append('\n');
                lines.values().forEach(line -> out.append(line).append('\n'));
            });
            return out.toString();
        }
    }

    /** The DaemonSet containers' steady load: cores, working set bytes. */
    private static final class SystemLoad {
        static double[] of(String container) {
            return switch (container) {
                case "nvidia-dcgm-exporter" -> new double[] {0.06, 212 * MIB};
                case "node-exporter" -> new double[] {0.012, 27 * MIB};
                case "nvidia-device-plugin" -> new double[] {0.002, 38 * MIB};
                default -> new double[] {0.01, 48 * MIB};
            };
        }
    }
}
