package io.jobmon.metrics.query;

import io.jobmon.metrics.query.Catalogue.Entry;
import io.jobmon.metrics.query.Catalogue.Scope;
import io.jobmon.metrics.query.Catalogue.Source;
import io.jobmon.metrics.query.Catalogue.Transform;
import io.jobmon.metrics.scrape.Cadvisor;
import io.jobmon.metrics.store.SeriesLabels;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The catalogue's per-container metrics, from the kubelet's cAdvisor ({@code /metrics/cadvisor}; ADR 0030). A
 * series is a job's only by its {@code namespace} and {@code pod} labels (never by node: jobs share nodes). cAdvisor
 * reports each cgroup: the containers ({@code container="<name>"}), the pod's own cgroup ({@code container=""}, the
 * sum of its containers: left out, it would count them twice) and the sandbox ({@code container="POD"}, the pause
 * process). CPU, memory and filesystem figures add up the named containers; network figures exist only per pod
 * sandbox, so they are taken from {@code container="POD"}, else (containerd without a POD row) from
 * {@code container=""}, never both ({@link #keepNetwork}).
 */
public final class ContainerMetrics {

    /** A named container's cgroup (not the pod's aggregate, not the sandbox). */
    static final Predicate<Map<String, String>> NAMED = l -> {
        String c = SeriesLabels.get(l, SeriesLabels.CONTAINER);
        return c != null && !"POD".equals(c);
    };
    /** The pod's network namespace: the sandbox's or the pod cgroup's row, of a real interface. */
    static final Predicate<Map<String, String>> POD_NETWORK = l -> {
        String c = SeriesLabels.get(l, SeriesLabels.CONTAINER);
        String i = l.getOrDefault("interface", "");
        return (c == null || "POD".equals(c)) && !i.equals("lo") && !i.startsWith("tunl");
    };

    static final List<Entry> ENTRIES = List.of(
            entry("container_cpu", "cores", new Source(Cadvisor.CPU, 1, Transform.RATE, NAMED)),
            entry("container_mem_working_set", "B", new Source(Cadvisor.WORKING_SET, 1, Transform.VALUE, NAMED)),
            entry("container_mem_rss", "B", new Source(Cadvisor.RSS, 1, Transform.VALUE, NAMED)),
            entry("container_mem_limit", "B", new Source(Cadvisor.MEMORY_LIMIT, 1, Transform.VALUE, NAMED)),
            entry("container_net_rx", "B/s", new Source(Cadvisor.NET_RX, 1, Transform.RATE, POD_NETWORK)),
            entry("container_net_tx", "B/s", new Source(Cadvisor.NET_TX, 1, Transform.RATE, POD_NETWORK)),
            entry("container_fs_read", "B/s", new Source(Cadvisor.FS_READ, 1, Transform.RATE, NAMED)),
            entry("container_fs_write", "B/s", new Source(Cadvisor.FS_WRITE, 1, Transform.RATE, NAMED)),
            entry("container_fs_usage", "B", new Source(Cadvisor.FS_USAGE, 1, Transform.VALUE, NAMED)));

    private ContainerMetrics() {
    }

    private static Entry entry(String name, String unit, Source source) {
        return new Entry(name, unit, Scope.CONTAINER, "cadvisor", List.of(source), null);
    }

    /**
     * The entries a job's chart answers: a node metric with a container counterpart ({@code cpu_util},
     * {@code mem_used}, {@code net_rx}, {@code net_tx}) from the job's containers, under its own name and with the
     * counterpart's unit, when cAdvisor series of the job's pods exist; else as asked (node_exporter's, a job alone on
     * its node).
     */
    static List<Entry> inJob(List<Entry> asked, io.jobmon.metrics.jobs.JobInfo job,
            List<io.jobmon.metrics.store.SeriesRef> candidates) {
        java.util.Set<String> pods = new java.util.HashSet<>(job.pods());
        java.util.Set<String> present = new java.util.HashSet<>();
        for (io.jobmon.metrics.store.SeriesRef s : candidates) {
            if (s.pod() != null && pods.contains(s.pod())) {
                present.add(s.metric());
            }
        }
        return asked.stream().map(e -> {
            Entry c = e.inJob() == null ? null : Catalogue.get(e.inJob());
            return c != null && c.sources().stream().anyMatch(s -> present.contains(s.metric())) ? c.as(e.name()) : e;
        }).toList();
    }

    /**
     * Leaves out a pod cgroup's network row ({@code container=""}) when the same pod has the sandbox's
     * ({@code container="POD"}) for that metric and interface: both describe the same network namespace.
     */
    static List<Attribution.Attributed> keepNetwork(List<Attribution.Attributed> series) {
        java.util.Set<String> sandbox = new java.util.HashSet<>();
        for (Attribution.Attributed a : series) {
            if ("POD".equals(a.series().labels().get(SeriesLabels.CONTAINER))) {
                sandbox.add(netKey(a));
            }
        }
        return series.stream().filter(a -> !(isNetwork(a) && SeriesLabels.get(a.series().labels(),
                SeriesLabels.CONTAINER) == null && sandbox.contains(netKey(a)))).toList();
    }

    private static boolean isNetwork(Attribution.Attributed a) {
        return Cadvisor.NET_RX.equals(a.series().metric()) || Cadvisor.NET_TX.equals(a.series().metric());
    }

    private static String netKey(Attribution.Attributed a) {
        return a.series().metric() + '\u0000' + a.series().namespace() + '\u0000' + a.pod() + '\u0000'
                + a.series().labels().getOrDefault("interface", "");
    }
}
