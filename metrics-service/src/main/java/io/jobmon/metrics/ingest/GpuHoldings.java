package io.jobmon.metrics.ingest;

import io.jobmon.contracts.events.MetricSamples;
import io.jobmon.metrics.store.SeriesLabels;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Which pod holds which GPU, from the series dcgm-exporter labels with the pod (ADR 0009). Per record, what it says
 * of each GPU ({@link #seen}, on a worker thread before the transaction: one map lookup per DCGM series); per batch,
 * the open holdings of its nodes (read from the table in the batch's transaction, so another replica's are seen
 * after a rebalance) carried forward record by record ({@link #apply}): a holding starts with a pod's first labelled
 * sample on a GPU and ends, at its last one, when another pod's sample arrives on the GPU, when the same series
 * arrives without the pod, or when a record of the node starts {@code gap} past it without one (its oldest sample:
 * a remote-write backfill's request of many scrapes is cut into records of a few GPUs each, ADR 0060).
 */
public final class GpuHoldings {

    /** Labels that are the pod's, not the series': left out of a holder's reference series. */
    private static final java.util.Set<String> POD_LABELS = java.util.Set.of(SeriesLabels.POD, SeriesLabels.NAMESPACE,
            SeriesLabels.CONTAINER, "pod_uid");

    private GpuHoldings() {
    }

    /** A pod's labelled series of one GPU in one record: their time span and one of them (the reference). */
    static final class Labelled {
        final String gpu;
        final String pod;
        final String namespace;
        final MetricSamples.Series ref;
        long firstMs = Long.MAX_VALUE;
        long lastMs = Long.MIN_VALUE;
        /** Another pod's series of the same GPU in the same record (time-slicing, or a change within the record). */
        Labelled other;

        Labelled(String gpu, String pod, String namespace, MetricSamples.Series ref) {
            this.gpu = gpu;
            this.pod = pod;
            this.namespace = namespace;
            this.ref = ref;
        }
    }

    /**
     * What one record says of its node's GPUs; {@code oldestMs} its oldest sample (any series): a backfill's request
     * cut into records spans many scrapes in each, so a GPU's holding is judged against where a record starts.
     */
    record Seen(String node, long oldestMs, Map<String, Labelled> labelled, List<MetricSamples.Series> unlabelled) {
    }

    /** A holding as stored; {@code storedLastMs} what the table holds of {@code lastMs} (-1: not stored yet). */
    public static final class Holding {
        public final String node;
        public final String gpu;
        public final long fromMs;
        public Long toMs;
        public long lastMs;
        final long storedLastMs;
        public final String index;
        public final String uuid;
        public final String pciBusId;
        public final String device;
        public final String model;
        public final String cluster;
        public final String namespace;
        public final String pod;
        public final String refMetric;
        public final String refLabels;

        public Holding(String node, String gpu, long fromMs, Long toMs, long lastMs, long storedLastMs, String index,
                String uuid, String pciBusId, String device, String model, String cluster, String namespace,
                String pod, String refMetric, String refLabels) {
            this.node = node;
            this.gpu = gpu;
            this.fromMs = fromMs;
            this.toMs = toMs;
            this.lastMs = lastMs;
            this.storedLastMs = storedLastMs;
            this.index = index;
            this.uuid = uuid;
            this.pciBusId = pciBusId;
            this.device = device;
            this.model = model;
            this.cluster = cluster;
            this.namespace = namespace;
            this.pod = pod;
            this.refMetric = refMetric;
            this.refLabels = refLabels;
        }
    }

    /** What a batch changed: rows to write (new, ended or seen a while longer) and holdings to publish. */
    public record Changes(List<Holding> write, List<Holding> publish) {
        public boolean isEmpty() {
            return write.isEmpty();
        }
    }

    /** A GPU's key on its node: dcgm-exporter's index, else its UUID; a MIG instance adds its GPU instance id. */
    static String gpuKey(Map<String, String> labels) {
        String g = XidDetector.gpu(labels);
        if (g == null) {
            return null;
        }
        String mig = SeriesLabels.get(labels, "GPU_I_ID");
        return mig == null ? g : g + "/" + mig;
    }

    /**
     * What one record says of its node's GPUs; null when it has no dcgm-exporter series.
     *
     * @param oldestMs the record's oldest sample (any series)
     */
    static Seen seen(SampleBatch r, long oldestMs) {
        Map<String, Labelled> labelled = null;
        List<MetricSamples.Series> unlabelled = null;
        for (MetricSamples.Series s : r.series()) {
            if (!s.name().startsWith("DCGM_") || s.size() == 0) {
                continue;
            }
            Map<String, String> l = s.labels();
            String pod = SeriesLabels.get(l, SeriesLabels.POD);
            if (pod == null) {
                if (unlabelled == null) {
                    unlabelled = new ArrayList<>();
                }
                unlabelled.add(s);
                continue;
            }
            String gpu = gpuKey(l);
            if (gpu == null) {
                continue;
            }
            if (labelled == null) {
                labelled = new LinkedHashMap<>();
            }
            Labelled x = labelled.get(gpu);
            String ns = SeriesLabels.get(l, SeriesLabels.NAMESPACE);
            if (x == null) {
                x = new Labelled(gpu, pod, ns, s);
                labelled.put(gpu, x);
            }
            while (!(x.pod.equals(pod) && Objects.equals(x.namespace, ns))) {
                if (x.other == null) {
                    x.other = new Labelled(gpu, pod, ns, s);
                }
                x = x.other;
            }
            long[] t = s.timestampsMs();
            for (long ms : t) {
                x.firstMs = Math.min(x.firstMs, ms);
                x.lastMs = Math.max(x.lastMs, ms);
            }
        }
        return labelled == null && unlabelled == null ? null
                : new Seen(r.node(), oldestMs, labelled == null ? Map.of() : labelled,
                        unlabelled == null ? List.of() : unlabelled);
    }

    /**
     * A series' labels other than the pod's, in name order: the MD5 digest (hex) of their text (a holder's reference
     * series, compared only with unlabelled series of the reference's name and GPU; a digest keeps the row small).
     */
    static String refLabels(Map<String, String> labels) {
        Map<String, String> m = new TreeMap<>();
        if (labels != null) {
            labels.forEach((k, v) -> {
                if (!POD_LABELS.contains(k) && v != null && !v.isEmpty()) {
                    m.put(k, v);
                }
            });
        }
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("MD5")
                    .digest(m.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Carries the open holdings forward over the batch's records, in order.
     *
     * @param open the open holdings of the batch's nodes, as stored
     * @param seen what each record says, in record order
     * @param gapMs a holding without a labelled sample for this long (by the node's samples) ends
     */
    public static Changes apply(List<Holding> open, List<Seen> seen, long gapMs) {
        Map<String, Map<String, Holding>> byNode = new HashMap<>();
        for (Holding h : open) {
            byNode.computeIfAbsent(h.node, k -> new LinkedHashMap<>()).put(h.gpu, h);
        }
        Map<String, Holding> write = new LinkedHashMap<>();
        Map<String, Holding> publish = new LinkedHashMap<>();
        long refresh = Math.max(1, gapMs / 4);
        for (Seen r : seen) {
            Map<String, Holding> here = byNode.computeIfAbsent(r.node(), k -> new LinkedHashMap<>());
            for (Labelled first : r.labelled().values()) {
                for (Labelled x : inTimeOrder(first)) {
                    Holding h = here.get(x.gpu);
                    if (h != null && h.pod.equals(x.pod) && Objects.equals(h.namespace, x.namespace)) {
                        if (x.lastMs > h.lastMs) {
                            h.lastMs = x.lastMs;
                            if (h.storedLastMs >= 0 && h.lastMs - h.storedLastMs >= refresh) {
                                write.put(pk(h), h);
                            }
                        }
                        continue;
                    }
                    if (h != null && x.firstMs <= h.lastMs) {
                        continue; // another pod's sample within the holding: late, or a shared GPU; the holder stays
                    }
                    if (h != null) {
                        end(h, write, publish);
                    }
                    Holding n = open(r.node(), x);
                    here.put(x.gpu, n);
                    write.put(pk(n), n);
                    publish.put(pk(n), n);
                }
            }
            if (here.isEmpty()) {
                continue;
            }
            for (MetricSamples.Series s : r.unlabelled()) {
                String gpu = gpuKey(s.labels());
                Holding h = gpu == null ? null : here.get(gpu);
                if (h != null && s.name().equals(h.refMetric) && min(s.timestampsMs()) > h.lastMs
                        && refLabels(s.labels()).equals(h.refLabels)) {
                    end(h, write, publish); // the holder's own series without its pod: the pod let the GPU go
                    here.remove(gpu);
                }
            }
            here.values().removeIf(h -> {
                if (r.oldestMs() - h.lastMs > gapMs) {
                    end(h, write, publish);
                    return true;
                }
                return false;
            });
        }
        return new Changes(List.copyOf(write.values()), List.copyOf(publish.values()));
    }

    /** A GPU's pods of one record by their first sample (a change of holder within one record). */
    private static List<Labelled> inTimeOrder(Labelled first) {
        if (first.other == null) {
            return List.of(first);
        }
        List<Labelled> all = new ArrayList<>();
        for (Labelled x = first; x != null; x = x.other) {
            all.add(x);
        }
        all.sort(java.util.Comparator.comparingLong(x -> x.firstMs));
        return all;
    }

    private static void end(Holding h, Map<String, Holding> write, Map<String, Holding> publish) {
        h.toMs = h.lastMs;
        write.put(pk(h), h);
        publish.put(pk(h), h);
    }

    private static Holding open(String node, Labelled x) {
        Map<String, String> l = x.ref.labels();
        return new Holding(node, x.gpu, x.firstMs, null, x.lastMs, -1, SeriesLabels.get(l, SeriesLabels.GPU),
                uuid(l), SeriesLabels.get(l, "pci_bus_id"), SeriesLabels.get(l, "device"),
                SeriesLabels.get(l, "modelName"), SeriesLabels.get(l, SeriesLabels.CLUSTER), x.namespace, x.pod,
                x.ref.name(), refLabels(l));
    }

    static String uuid(Map<String, String> l) {
        String u = SeriesLabels.get(l, "UUID");
        return u == null ? SeriesLabels.get(l, "uuid") : u;
    }

    private static String pk(Holding h) {
        return h.node + '\u0000' + h.gpu + '\u0000' + h.fromMs;
    }

    private static long min(long[] t) {
        long m = Long.MAX_VALUE;
        for (long x : t) {
            m = Math.min(m, x);
        }
        return m;
    }
}
