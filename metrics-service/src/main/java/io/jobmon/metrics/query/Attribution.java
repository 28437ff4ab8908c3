package io.jobmon.metrics.query;

import io.jobmon.metrics.jobs.Placements;
import io.jobmon.metrics.store.SeriesRef;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which series are a job's, when, and how we know. {@code labels}: dcgm-exporter put the job's pod on the GPU's
 * series. {@code gpu}: a GPU series without pod labels (an Xid or error counter the exporter did not label, a second
 * exporter) of a GPU one of the job's pods held, while it held it (by UUID, else PCI bus id, else node and index; ADR
 * 0009). {@code placement}: no pod labels on that node, but the job was the only one there then and held all the
 * node's GPUs (a GPU series), or was the only one there (a node series such as CPU or network). Anything else is
 * ambiguous and left out, and said so.
 */
public final class Attribution {

    public static final String LABELS = "labels";
    public static final String PLACEMENT = "placement";
    public static final String GPU = "gpu";

    /** A series taken for the job, the pod it is shown under (null: unknown), and when it is the job's. */
    public record Attributed(SeriesRef series, String pod, String method, List<long[]> valid) {
    }

    /** A node (and GPU) with data in range that could not be attributed, and why. */
    @org.eclipse.microprofile.openapi.annotations.media.Schema(name = "UnattributedGpu")
    public record Unattributed(String node, String gpu, String reason) {
    }

    public record Result(List<Attributed> series, List<Unattributed> unattributed) {
    }

    private Attribution() {
    }

    /**
     * @param jobPods the job's pods; {@code namespace} its namespace (null: unknown)
     * @param mine the job's intervals per node; {@code others} other jobs' intervals on those nodes
     * @param candidates series of the wanted metrics: labelled with the job's pods, or on the job's nodes
     * @param gpuScope whether these are per-GPU series (dcgm-exporter) rather than per-node ones
     * @param held the GPUs the job's pods held (GPU series only)
     */
    public static Result attribute(Collection<String> jobPods, String namespace, List<Placements.Interval> mine,
            List<Placements.Interval> others, List<SeriesRef> candidates, boolean gpuScope, long fromMs, long toMs,
            List<Holdings.Held> held) {
        Set<String> pods = new HashSet<>(jobPods);
        List<Attributed> out = new ArrayList<>();
        List<Unattributed> left = new ArrayList<>();
        Set<Long> seen = new HashSet<>();
        Set<String> labelledNodes = new HashSet<>();
        Set<String> labelledGpus = new HashSet<>();
        for (SeriesRef s : candidates) {
            if (s.pod() != null) {
                labelledNodes.add(s.node());
            }
            if (s.pod() != null && pods.contains(s.pod())
                    && (namespace == null || s.namespace() == null || namespace.equals(s.namespace()))
                    && seen.add(s.id())) {
                out.add(new Attributed(s, s.pod(), LABELS, null));
                // the same metric of the same GPU from an exporter without pod labels would count twice
                labelledGpus.add(s.metric() + '\u0000' + s.node() + '\u0000' + s.gpu());
            }
        }
        Map<String, Set<String>> gpusOnNode = new HashMap<>();
        for (SeriesRef s : candidates) {
            if (s.pod() == null && s.gpu() != null) {
                gpusOnNode.computeIfAbsent(s.node(), k -> new HashSet<>()).add(s.gpu());
            }
        }
        Set<String> reported = new HashSet<>();
        for (SeriesRef s : candidates) {
            if (s.pod() != null || seen.contains(s.id())) {
                continue;
            }
            if (gpuScope && !held.isEmpty() && !labelledGpus.contains(s.metric() + '\u0000' + s.node() + '\u0000' + s.gpu())) {
                List<Attributed> byGpu = byGpu(s, held, fromMs, toMs);
                if (!byGpu.isEmpty()) {
                    out.addAll(byGpu);
                    continue;
                }
            }
            List<Placements.Interval> here = mine.stream().filter(i -> i.node().equals(s.node())).toList();
            if (here.isEmpty()) {
                continue;
            }
            if (gpuScope && labelledNodes.contains(s.node())) {
                continue; // dcgm-exporter maps pods on this node: a GPU without the job's pod is not the job's
            }
            List<long[]> valid = new ArrayList<>();
            String pod = null;
            String reason = null;
            for (Placements.Interval i : here) {
                if (gpuScope && (i.gpus() == null || i.gpus() < gpusOnNode.getOrDefault(s.node(), Set.of()).size())) {
                    reason = i.gpus() == null ? "the job's GPUs on this node are not known and dcgm-exporter has no pod labels"
                            : "the job held " + i.gpus() + " of the node's GPUs and dcgm-exporter has no pod labels";
                    continue;
                }
                List<long[]> exclusive = subtract(i.fromMs(), i.toMs() == null ? Long.MAX_VALUE : i.toMs(),
                        others.stream().filter(o -> o.node().equals(s.node())).toList());
                for (long[] e : exclusive) {
                    if (e[1] > fromMs && e[0] < toMs) {
                        valid.add(e);
                    }
                }
                if (exclusive.isEmpty()) {
                    reason = "other jobs ran on the node at the same time";
                }
                if (i.pods().size() == 1) {
                    pod = i.pods().get(0);
                }
            }
            if (!valid.isEmpty()) {
                out.add(new Attributed(s, pod, PLACEMENT, valid));
            } else if (reason != null && reported.add(s.node() + "/" + s.gpu())) {
                left.add(new Unattributed(s.node(), s.gpu(), reason));
            }
        }
        return new Result(out, left);
    }

    /** The series while one of the job's pods held its GPU, one entry per pod. */
    static List<Attributed> byGpu(SeriesRef s, List<Holdings.Held> held, long fromMs, long toMs) {
        Map<String, List<long[]>> byPod = new java.util.LinkedHashMap<>();
        for (Holdings.Held h : held) {
            long[] r = Holdings.sameGpu(h, s) ? h.range(fromMs, toMs) : null;
            if (r != null) {
                byPod.computeIfAbsent(h.pod(), k -> new ArrayList<>()).add(r);
            }
        }
        List<Attributed> out = new ArrayList<>(byPod.size());
        byPod.forEach((pod, ranges) -> {
            ranges.sort((a, b) -> Long.compare(a[0], b[0]));
            out.add(new Attributed(s, pod, GPU, ranges));
        });
        return out;
    }

    /** [from, to) minus the other intervals, as sorted disjoint ranges. */
    static List<long[]> subtract(long from, long to, List<Placements.Interval> others) {
        List<long[]> ranges = new ArrayList<>();
        ranges.add(new long[] {from, to});
        for (Placements.Interval o : others) {
            long of = o.fromMs();
            long ot = o.toMs() == null ? Long.MAX_VALUE : o.toMs();
            List<long[]> next = new ArrayList<>();
            for (long[] r : ranges) {
                if (ot <= r[0] || of >= r[1]) {
                    next.add(r);
                    continue;
                }
                if (of > r[0]) {
                    next.add(new long[] {r[0], of});
                }
                if (ot < r[1]) {
                    next.add(new long[] {ot, r[1]});
                }
            }
            ranges = next;
        }
        return ranges;
    }
}
