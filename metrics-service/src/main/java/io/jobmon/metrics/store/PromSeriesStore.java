package io.jobmon.metrics.store;

import io.jobmon.metrics.config.MetricsConfig;
import io.jobmon.metrics.store.codec.Points;
import io.jobmon.metrics.store.codec.Rollups;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Typed;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * {@code jobmon.metrics.storage=prometheus}: samples live in a Prometheus-compatible engine, which this store asks
 * over HTTP (ADR 0036). A job's candidates are found by label matchers built from what jobmon's database knows of it
 * (pods, namespace, nodes, the nodes of the GPUs its pods held); raw samples are instant queries of range vectors,
 * rollups the engine's {@code *_over_time} per bucket; long ranges are split (a day by default) and the splits read
 * side by side, the series of one metric batched into one query by node (or pod) regex.
 */
@ApplicationScoped
@Typed(PromSeriesStore.class)
public class PromSeriesStore implements SeriesStore {

    /** The job's pods and namespace, and its nodes: where it ran and where its pods held GPUs. */
    private static final String JOB = "SELECT (SELECT pods FROM job_info WHERE job_id = $1) AS pods,"
            + " (SELECT namespace FROM job_info WHERE job_id = $1) AS namespace,"
            + " ARRAY(SELECT node FROM job_node WHERE job_id = $1 UNION SELECT h.node FROM job_info j"
            + " JOIN gpu_holding h ON h.pod = ANY(j.pods) WHERE j.job_id = $1) AS nodes";
    /**
     * The rollup aggregates charts read, in one query per metric and split (the aggregate as a label); a bucket's
     * last sample is not read (NaN): nothing above uses it.
     */
    private static final String[] AGGS = {"min", "max", "sum", "count"};
    private static final String AGG = "jobmon_agg";
    /** The longest bucket whose open part is read as raw samples (longer ones: as the engine's aggregates). */
    private static final long OPEN_FROM_RAW = Resolution.HOUR.bucketMs;
    /** Series lookups span all time (1 s: VictoriaMetrics reads a start of 0 as none, and then only the last day). */
    private static final long EPOCH = 1000;

    private final Pool pool;
    private final PromClient engine;
    private final String nodeLabel;
    private final List<String> fallbacks;
    private final long splitMs;
    private final int concurrency;
    private final SettledReads settled;

    public PromSeriesStore(Pool pool, PromClient engine, MetricsConfig config, SettledReads settled) {
        this.pool = pool;
        this.settled = settled;
        this.engine = engine;
        this.nodeLabel = config.prometheus().nodeLabel();
        this.fallbacks = config.nodeLabels();
        this.splitMs = Math.max(Resolution.HOUR.bucketMs, config.prometheus().split().toMillis());
        this.concurrency = Math.max(1, config.prometheus().concurrency());
    }

    @Override
    public Uni<List<SeriesRef>> onNodes(Collection<String> nodes, Collection<String> metrics) {
        if (nodes.isEmpty() || metrics.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return engine.series(List.of(PromSelectors.selector(metrics, nodeLabel, nodes)), EPOCH, System.currentTimeMillis())
                .map(found -> found.stream().map(s -> ref(s.labels())).toList());
    }

    @Override
    public Uni<List<SeriesRef>> ofJob(String jobId, Collection<String> podMetrics, Collection<String> nodeMetrics) {
        return pool.preparedQuery(JOB).execute(Tuple.of(jobId)).chain(rows -> {
            Row r = rows.iterator().next();
            Set<String> pods = r.getArrayOfStrings("pods") == null ? Set.of() : Set.of(r.getArrayOfStrings("pods"));
            String namespace = r.getString("namespace");
            Set<String> nodes = Set.of(r.getArrayOfStrings("nodes"));
            List<String> selectors = new ArrayList<>();
            if (!pods.isEmpty() && !podMetrics.isEmpty()) {
                selectors.add(PromSelectors.selector(podMetrics, SeriesLabels.POD, pods));
            }
            if (!nodes.isEmpty() && !nodeMetrics.isEmpty()) {
                selectors.add(PromSelectors.selector(nodeMetrics, nodeLabel, nodes));
            }
            if (selectors.isEmpty()) {
                return Uni.createFrom().item(List.<SeriesRef>of());
            }
            return engine.series(selectors, EPOCH, System.currentTimeMillis()).map(found -> {
                // as the embedded store: the pods' series first, then the nodes' (a series may come twice)
                List<SeriesRef> byPod = new ArrayList<>();
                List<SeriesRef> byNode = new ArrayList<>();
                for (PromClient.Series s : found) {
                    SeriesRef ref = ref(s.labels());
                    if (podMetrics.contains(ref.metric()) && ref.pod() != null && pods.contains(ref.pod())
                            && (namespace == null || ref.namespace() == null || namespace.equals(ref.namespace()))) {
                        byPod.add(ref);
                    }
                    if (nodeMetrics.contains(ref.metric()) && nodes.contains(ref.node())) {
                        byNode.add(ref);
                    }
                }
                byPod.addAll(byNode);
                return byPod;
            });
        });
    }

    private SeriesRef ref(Map<String, String> labels) {
        return PromSelectors.ref(labels, nodeLabel, fallbacks);
    }

    @Override
    public Uni<Map<Long, Points>> raw(List<SeriesRef> series, long fromMs, long toMs) {
        return raw("raw\n", series, fromMs, toMs);
    }

    /** {@link #raw}, its answers kept under keys that start with {@code kind} (a chart's open buckets: their own). */
    private Uni<Map<Long, Points>> raw(String kind, List<SeriesRef> series, long fromMs, long toMs) {
        if (series.isEmpty() || toMs <= fromMs) {
            return Uni.createFrom().item(new HashMap<>());
        }
        List<Uni<List<PromClient.Series>>> reads = new ArrayList<>();
        byMetric(series).forEach((metric, refs) -> {
            String sel = PromSelectors.of(metric, refs, nodeLabel);
            // the settled part from this replica's memory when it read it before (ADR 0044), the rest from the engine
            reads.add(settled.read(kind + sel, nodes(refs), fromMs, toMs, 1, (a, b) -> rawReads(sel, a, b)));
        });
        Set<Long> wanted = ids(series);
        return all(reads).map(results -> {
            Map<Long, Points> out = new HashMap<>();
            for (List<PromClient.Series> result : results) {
                for (PromClient.Series s : result) {
                    long id = PromSelectors.id(s.labels().get(PromSelectors.NAME), s.labels());
                    if (wanted.contains(id)) {
                        Points p = out.computeIfAbsent(id, k -> new Points(s.t().length));
                        for (int i = 0; i < s.t().length; i++) {
                            p.add(s.t()[i], s.v()[i]);
                        }
                    }
                }
            }
            out.replaceAll((id, p) -> p.normalize().slice(fromMs, toMs));
            return out;
        });
    }

    /** The samples of {@code sel} in [from, to), in splits read side by side. */
    private Uni<List<PromClient.Series>> rawReads(String sel, long from, long to) {
        List<Uni<List<PromClient.Series>>> reads = new ArrayList<>();
        for (long[] split : splits(from, to, splitMs)) {
            // the range vector's own samples in (end - range, end]: [from, to) with end = to - 1 ms
            reads.add(engine.query(sel + "[" + PromSelectors.ms(split[1] - split[0]) + "]", split[1] - 1));
        }
        return all(reads).map(SettledReads::join);
    }

    @Override
    public Uni<Map<Long, Rollups>> rollups(List<SeriesRef> series, Resolution res, long fromMs, long toMs) {
        return rollups(series, res, res.bucketMs, fromMs, toMs);
    }

    /** Buckets of the chart's step, computed by the engine: a 7-day chart reads 673 buckets a series, not 10,080. */
    @Override
    public Uni<Map<Long, Rollups>> rollups(List<SeriesRef> series, Resolution res, long stepMs, long fromMs,
            long toMs) {
        if (series.isEmpty() || toMs <= fromMs) {
            return Uni.createFrom().item(new HashMap<>());
        }
        long bucket = stepMs > 0 && stepMs % res.bucketMs == 0 ? stepMs : res.bucketMs;
        long bucketFrom = Math.floorDiv(fromMs, bucket) * bucket;
        long bucketTo = Math.floorDiv(toMs - 1, bucket) * bucket + bucket;
        // splits of whole buckets: the split length rounded up to the bucket
        long split = (splitMs + bucket - 1) / bucket * bucket;
        List<SeriesRef> gauges = series.stream().filter(s -> !s.counter()).toList();
        // a last bucket the chart's end cuts ends where the builtin store's 1-minute rollups end; the buckets before
        // both that end and the settled line are the engine's aggregates (kept, ADR 0044), the others (the open bucket)
        // jobmon's own of the raw samples, of which the engine is asked only what did not settle yet (ADR 0054)
        long cut = Math.min(bucketTo, Math.floorDiv(toMs + res.bucketMs - 1, res.bucketMs) * res.bucketMs);
        long closedTo = bucket > OPEN_FROM_RAW ? bucketTo : Math.max(bucketFrom, Math.min(
                Math.floorDiv(settled.settledLine(), bucket) * bucket, Math.floorDiv(cut, bucket) * bucket));
        Uni<Map<Long, Rollups>> open = closedTo >= cut ? Uni.createFrom().item(Map.of())
                : raw("open\n" + bucket + "\n", gauges, closedTo, cut).map(raw -> {
                    Map<Long, Rollups> out = new HashMap<>();
                    raw.forEach((id, p) -> out.put(id, Rollups.of(p, bucket, false, Double.NaN)));
                    return out;
                });
        List<SeriesRef> counters = series.stream().filter(SeriesRef::counter).toList();
        // counters: jobmon's own increase (resets count from zero, no extrapolation) from the raw samples, one
        // bucket earlier for the first bucket's start
        Uni<Map<Long, Rollups>> ofCounters = raw(counters, bucketFrom - bucket, toMs).map(raw -> {
            Map<Long, Rollups> out = new HashMap<>();
            raw.forEach((id, p) -> out.put(id, Rollups.of(p, bucket, true, Double.NaN).slice(bucketFrom, toMs)));
            return out;
        });
        List<Uni<List<PromClient.Series>>> reads = new ArrayList<>();
        byMetric(gauges).forEach((metric, refs) -> {
            String q = aggregates(PromSelectors.of(metric, refs, nodeLabel), bucket);
            reads.add(settled.read("rollups\n" + bucket + "\n" + q, nodes(refs), bucketFrom, closedTo, bucket,
                    (a, b) -> rollupReads(q, a, b, bucket, split)).map(found -> withMetric(found, metric)));
        });
        Set<Long> wanted = ids(gauges);
        Uni<Map<Long, Rollups>> ofGauges = all(reads).map(results -> {
            // per series, each aggregate per bucket of [bucketFrom, closedTo) (arrays: a chart reads every bucket)
            int n = (int) ((closedTo - bucketFrom) / bucket);
            Map<Long, double[][]> buckets = new HashMap<>();
            for (List<PromClient.Series> result : results) {
                for (PromClient.Series s : result) {
                    Map<String, String> labels = new TreeMap<>(s.labels());
                    int agg = List.of(AGGS).indexOf(labels.remove(AGG));
                    long id = PromSelectors.id(labels.get(PromSelectors.NAME), labels);
                    if (agg < 0 || !wanted.contains(id)) {
                        continue;
                    }
                    double[][] b = buckets.computeIfAbsent(id, k -> {
                        double[][] a = new double[AGGS.length][n];
                        for (double[] x : a) {
                            java.util.Arrays.fill(x, Double.NaN);
                        }
                        return a;
                    });
                    for (int i = 0; i < s.t().length; i++) {
                        long k = Math.floorDiv(s.t()[i] - bucketFrom, bucket);
                        if (k >= 0 && k < n) {
                            b[agg][(int) k] = s.v()[i];
                        }
                    }
                }
            }
            Map<Long, Rollups> out = new HashMap<>();
            buckets.forEach((id, b) -> {
                Rollups r = new Rollups(n + (int) ((cut - closedTo) / bucket) + 1); // room for the open buckets
                for (int k = 0; k < n; k++) {
                    long t = bucketFrom + k * bucket;
                    if (b[3][k] > 0 && t < toMs) {
                        r.add(t, b[0][k], b[1][k], b[2][k], b[3][k], Double.NaN, Double.NaN);
                    }
                }
                out.put(id, r);
            });
            return out;
        });
        return Uni.combine().all().unis(ofGauges, open, ofCounters).asTuple().map(t -> {
            Map<Long, Rollups> out = new HashMap<>(t.getItem1());
            t.getItem2().forEach((id, o) -> {
                Rollups r = out.computeIfAbsent(id, k -> new Rollups(o.n));
                for (int i = 0; i < o.n && o.t[i] < toMs; i++) {
                    r.add(o.t[i], o.min[i], o.max[i], o.sum[i], o.count[i], Double.NaN, Double.NaN);
                }
            });
            out.putAll(t.getItem3());
            return out;
        });
    }

    /** The buckets [from, to) of {@code q}, in splits read side by side, each at its start. */
    private Uni<List<PromClient.Series>> rollupReads(String q, long from, long to, long bucket, long split) {
        List<Uni<List<PromClient.Series>>> reads = new ArrayList<>();
        for (long[] part : splits(from, to, split)) {
            // evaluated at each bucket's end: the window [bucket, bucket + step) (offset 1 ms: the end excluded)
            reads.add(engine.queryRange(q, part[0] + bucket, part[1], bucket).map(found -> {
                List<PromClient.Series> out = new ArrayList<>(found.size());
                for (PromClient.Series s : found) {
                    long[] t = new long[s.t().length];
                    for (int i = 0; i < t.length; i++) {
                        t[i] = s.t()[i] - bucket;
                    }
                    out.add(new PromClient.Series(s.labels(), t, s.v()));
                }
                return out;
            }));
        }
        return all(reads).map(SettledReads::join);
    }

    /** The nodes of these series (empty names for those without one). */
    private static List<String> nodes(List<SeriesRef> refs) {
        return refs.stream().map(SeriesRef::node).distinct().toList();
    }

    /** The aggregates of each series over {@code [t - step, t)}, told apart by a label. */
    static String aggregates(String selector, long stepMs) {
        String window = selector + "[" + PromSelectors.ms(stepMs) + "] offset 1ms";
        StringBuilder b = new StringBuilder();
        for (String agg : AGGS) {
            if (b.length() > 0) {
                b.append(" or ");
            }
            b.append("label_replace(").append(agg).append("_over_time(").append(window).append("), \"").append(AGG)
                    .append("\", \"").append(agg).append("\", \"\", \"\")");
        }
        return b.toString();
    }

    /** Overview: the GPUs reporting utilisation in the range, each once (a labelled cluster and pool preferred). */
    @Override
    public Uni<List<GpuPresent>> gpusPresent(long fromMs, long toMs) {
        String q = "count by (cluster, pool, " + nodeLabel + ", gpu) (last_over_time(DCGM_FI_DEV_GPU_UTIL{gpu!=\"\"}["
                + PromSelectors.ms(Math.max(1, toMs - fromMs)) + "]))";
        return engine.query(q, toMs).map(found -> {
            Map<String, GpuPresent> out = new TreeMap<>();
            for (PromClient.Series s : found) {
                GpuPresent g = new GpuPresent(SeriesLabels.get(s.labels(), nodeLabel), SeriesLabels.get(s.labels(),
                        SeriesLabels.GPU), SeriesLabels.get(s.labels(), SeriesLabels.CLUSTER),
                        SeriesLabels.get(s.labels(), SeriesLabels.POOL));
                out.merge(g.node() + "/" + g.gpu(), g, (a, b) -> rank(b) > rank(a) ? b : a);
            }
            return List.copyOf(out.values());
        });
    }

    private static int rank(GpuPresent g) {
        return (g.pool() != null ? 2 : 0) + (g.cluster() != null ? 1 : 0);
    }

    /** {@code *_over_time} drop the metric name: put it back, for the id. */
    private static List<PromClient.Series> withMetric(List<PromClient.Series> found, String metric) {
        List<PromClient.Series> out = new ArrayList<>(found.size());
        for (PromClient.Series s : found) {
            Map<String, String> labels = new TreeMap<>(s.labels());
            labels.put(PromSelectors.NAME, metric);
            out.add(new PromClient.Series(labels, s.t(), s.v()));
        }
        return out;
    }

    private <T> Uni<List<T>> all(List<Uni<T>> reads) {
        if (reads.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return Multi.createFrom().iterable(reads).onItem().transformToUni(Function.identity()).merge(concurrency)
                .collect().asList();
    }

    private static Map<String, List<SeriesRef>> byMetric(List<SeriesRef> series) {
        Map<String, List<SeriesRef>> out = new LinkedHashMap<>();
        series.forEach(s -> out.computeIfAbsent(s.metric(), k -> new ArrayList<>()).add(s));
        return out;
    }

    private static Set<Long> ids(List<SeriesRef> series) {
        Set<Long> out = new HashSet<>();
        series.forEach(s -> out.add(s.id()));
        return out;
    }

    /** [from, to) cut at multiples of {@code split} (aligned, so that an engine's cache serves a chart again). */
    static List<long[]> splits(long from, long to, long split) {
        List<long[]> out = new ArrayList<>();
        for (long s = from; s < to;) {
            long e = Math.min(to, Math.floorDiv(s, split) * split + split);
            out.add(new long[] {s, e});
            s = e;
        }
        return out;
    }
}
