package io.jobmon.diagnosis.engine;

import io.jobmon.contracts.attribution.NodeLines;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Node-level evidence of a bundle that is provably a neighbour's is set aside before the analysis (issue #24): a
 * job shares its nodes, and the node's kernel lines and GPU series name other pods' processes and GPUs. The same
 * rules log-service and metrics-service apply on the live path, read from what a bundle itself shows:
 * <ul>
 * <li>the job's GPUs are those its pods' series are labelled with (dcgm-exporter's pod mapping): a series of another
 * pod, an unlabelled GPU series of a GPU the job did not hold, an NVRM line naming the PCI bus id of such a GPU and
 * a device-plugin line naming its UUID are not the job's — when the bundle shows no GPU of the job on a node, its
 * GPU evidence there is kept, as nothing tells it apart;</li>
 * <li>a memory-cgroup OOM kill killed a process of the pod whose cgroup hit its limit: its report (from
 * {@code invoked oom-killer} to {@code oom_reaper}) is the job's only when a container of the job on that node ended
 * OOMKilled or with exit code 137; a node-wide OOM kill ({@code CONSTRAINT_NONE}) stays, every pod suffers it.</li>
 * </ul>
 */
final class NodeEvidence {

    /** Lines of one kernel OOM report, printed together around its kill line. */
    private static final Duration OOM_REPORT = Duration.ofSeconds(10);
    private static final List<String> OOM_REPORT_LINES = List.of(" invoked oom-killer:", "oom-kill:", "Killed process",
            "oom_reaper:", "Memory cgroup stats for", "memory: usage", "memory+swap: usage", "swap: usage",
            "kmem: usage", "Tasks state (memory values in pages)", "Task in /kubepods");

    private NodeEvidence() {
    }

    static EvidenceBundle ownOnly(EvidenceBundle b) {
        Set<String> pods = new HashSet<>();
        b.pods().forEach(p -> pods.add(p.name()));
        Gpus held = Gpus.of(b, pods);
        List<EvidenceBundle.Metric> metrics = new ArrayList<>(b.metrics().size());
        for (EvidenceBundle.Metric m : b.metrics()) {
            if (held.mine(m, pods)) {
                metrics.add(m);
            }
        }
        List<EvidenceBundle.LogLine> logs = foreignOomReports(b, held.bundleNode());
        logs.removeIf(l -> isSystem(l) && !held.mineLine(l.line()));
        if (logs.size() == b.logs().size() && metrics.size() == b.metrics().size()) {
            return b;
        }
        return new EvidenceBundle(b.job(), b.pods(), b.events(), logs, metrics, b.window(), b.hint(),
                b.missingSources());
    }

    private static boolean isSystem(EvidenceBundle.LogLine l) {
        return "system".equalsIgnoreCase(l.stream());
    }

    /** The logs without the OOM reports of memory-cgroup kills that no container of the job on their node suffered. */
    private static List<EvidenceBundle.LogLine> foreignOomReports(EvidenceBundle b, String onlyNode) {
        List<EvidenceBundle.LogLine> logs = new ArrayList<>(b.logs());
        List<Instant> foreignKills = new ArrayList<>();
        List<String> foreignHosts = new ArrayList<>();
        for (EvidenceBundle.LogLine l : logs) {
            if (!isSystem(l) || l.time() == null || !NodeLines.memcgKill(l.line())) {
                continue;
            }
            String host = host(l.line(), onlyNode);
            if (!oomKilledOn(b, host)) {
                foreignKills.add(l.time());
                foreignHosts.add(host);
            }
        }
        if (foreignKills.isEmpty()) {
            return logs;
        }
        logs.removeIf(l -> {
            if (!isSystem(l) || l.time() == null || OOM_REPORT_LINES.stream().noneMatch(l.line()::contains)) {
                return false;
            }
            for (int i = 0; i < foreignKills.size(); i++) {
                boolean near = Duration.between(foreignKills.get(i), l.time()).abs().compareTo(OOM_REPORT) <= 0;
                String host = host(l.line(), onlyNode);
                if (near && (host == null || foreignHosts.get(i) == null || host.equals(foreignHosts.get(i)))) {
                    return true;
                }
            }
            return false;
        });
        return logs;
    }

    /** Whether a container of the job on {@code host} (any node when unknown) ended OOMKilled or with 137. */
    private static boolean oomKilledOn(EvidenceBundle b, String host) {
        for (EvidenceBundle.Pod p : b.pods()) {
            if (host != null && p.node() != null && !host.equals(p.node())) {
                continue;
            }
            if ("OOMKilled".equalsIgnoreCase(p.reason())) {
                return true;
            }
            for (EvidenceBundle.Container c : p.containers()) {
                if ("OOMKilled".equalsIgnoreCase(c.reason()) || Integer.valueOf(137).equals(c.exitCode())) {
                    return true;
                }
            }
        }
        return false;
    }

    private static String host(String line, String onlyNode) {
        String h = SourceTexts.syslogHost(line);
        return h != null ? h : onlyNode;
    }

    /** The job's GPUs, as its pods' labelled series show them, per node. */
    private record Gpus(Set<String> nodes, Set<String> keys, Set<String> uuids, Set<String> buses, String bundleNode) {

        static Gpus of(EvidenceBundle b, Set<String> pods) {
            Set<String> nodes = new HashSet<>();
            Set<String> keys = new HashSet<>();
            Set<String> uuids = new HashSet<>();
            Set<String> buses = new HashSet<>();
            for (EvidenceBundle.Metric m : b.metrics()) {
                String pod = m.label("pod");
                String node = node(m);
                if (pod == null || !pods.contains(pod) || node == null || gpu(m) == null && uuid(m) == null) {
                    continue;
                }
                nodes.add(node);
                if (gpu(m) != null) {
                    keys.add(node + "/" + gpu(m));
                }
                if (uuid(m) != null) {
                    uuids.add(uuid(m));
                }
                if (m.label("pci_bus_id") != null) {
                    buses.add(node + "/" + NodeLines.pciBus(m.label("pci_bus_id")));
                }
            }
            Set<String> podNodes = new HashSet<>();
            b.pods().forEach(p -> {
                if (p.node() != null) {
                    podNodes.add(p.node());
                }
            });
            return new Gpus(nodes, keys, uuids, buses, podNodes.size() == 1 ? podNodes.iterator().next() : null);
        }

        /** A series is the job's unless it is another pod's, or a GPU of a node where the job's GPUs are known. */
        boolean mine(EvidenceBundle.Metric m, Set<String> pods) {
            String pod = m.label("pod");
            if (pod != null && !pod.isEmpty()) {
                return pods.isEmpty() || pods.contains(pod);
            }
            String node = node(m);
            if (node == null || !nodes.contains(node) || gpu(m) == null && uuid(m) == null) {
                return true;
            }
            return uuid(m) != null ? uuids.contains(uuid(m)) : keys.contains(node + "/" + gpu(m));
        }

        /** A system line naming a GPU (PCI bus id, UUID) is the job's unless it is a GPU of a node whose are known. */
        boolean mineLine(String line) {
            String uuid = NodeLines.gpuUuid(line);
            if (uuid != null && !uuids.isEmpty()) {
                return uuids.contains(uuid);
            }
            String bus = line.contains("NVRM") ? NodeLines.pciBus(line) : null;
            if (bus == null) {
                return true;
            }
            String host = host(line, bundleNode);
            if (host == null || !nodes.contains(host)) {
                return true;
            }
            return buses.stream().noneMatch(k -> k.startsWith(host + "/")) || buses.contains(host + "/" + bus);
        }

        private static String node(EvidenceBundle.Metric m) {
            for (String k : new String[] {"Hostname", "hostname", "node", "instance"}) {
                String v = m.label(k);
                if (v != null && !v.isEmpty()) {
                    int colon = "instance".equals(k) ? v.indexOf(':') : -1;
                    return colon > 0 ? v.substring(0, colon) : v;
                }
            }
            return null;
        }

        private static String gpu(EvidenceBundle.Metric m) {
            return m.label("gpu");
        }

        private static String uuid(EvidenceBundle.Metric m) {
            String u = m.label("UUID");
            return u == null ? null : NodeLines.gpuUuid(u.toUpperCase(Locale.ROOT).startsWith("GPU-") ? "GPU-" + u.substring(4) : u);
        }
    }
}
