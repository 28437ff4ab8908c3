package io.jobmon.metrics.query;

import io.jobmon.metrics.config.MetricsConfig;
import io.jobmon.metrics.jobs.JobInfo;
import io.jobmon.metrics.jobs.JobRepository;
import io.jobmon.metrics.jobs.Placements;
import io.jobmon.metrics.store.Resolution;
import io.jobmon.metrics.store.SeriesRef;
import io.jobmon.metrics.store.SeriesStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A job's charts: the series that are the job's (by pod labels, else by placement), read at the chosen resolution,
 * combined per metric and group. The same after the job ended: placements and series stay.
 */
@ApplicationScoped
public class JobMetricsService {

    /** Where a running job's chart starts by default: the last 3 days (seed 004). */
    static final Duration RUNNING_DEFAULT = Duration.ofDays(3);

    private final JobRepository jobs;
    private final SeriesStore store;
    private final XidEvents xids;
    private final MetricsConfig config;

    public JobMetricsService(JobRepository jobs, SeriesStore store, XidEvents xids, MetricsConfig config) {
        this.jobs = jobs;
        this.store = store;
        this.xids = xids;
        this.config = config;
    }

    /** The job's default range: its run time; the last 3 days of it while it runs. */
    static Instant[] defaultRange(JobInfo job, Instant now) {
        Instant start = job.startedAt() != null ? job.startedAt() : job.submittedAt() != null ? job.submittedAt()
                : now.minus(RUNNING_DEFAULT);
        Instant end = job.finishedAt() != null ? job.finishedAt() : now;
        if (job.finishedAt() == null && start.isBefore(end.minus(RUNNING_DEFAULT))) {
            start = end.minus(RUNNING_DEFAULT);
        }
        if (!start.isBefore(end)) {
            end = start.plusSeconds(60);
        }
        return new Instant[] {start, end};
    }

    /**
     * What a chart needs of a job besides its facts: where it ran, its candidate series (its pods' and its nodes'), and
     * the other jobs that shared its nodes. All are found by the job's id, so they are read side by side, alongside the
     * access check and the facts when the caller asks for those too ({@link JobMetricsResource}).
     */
    public record Lookups(List<Placements.Interval> mine, List<SeriesRef> candidates, List<Placements.Interval> others) {
    }

    public Uni<Lookups> lookups(String jobId, ChartParams params) {
        Set<String> gpuMetrics = metrics(params, Catalogue.Scope.GPU);
        Set<String> all = new LinkedHashSet<>(gpuMetrics);
        all.addAll(metrics(params, Catalogue.Scope.NODE));
        return Uni.combine().all().unis(jobs.intervals(jobId), store.ofJob(jobId, gpuMetrics, all), jobs.alongside(jobId))
                .asTuple().map(t -> new Lookups(t.getItem1(), dedupe(t.getItem2()),
                        t.getItem3().stream().map(JobRepository.JobInterval::interval).toList()));
    }

    /** The stored metrics behind the asked ones of this scope. */
    private static Set<String> metrics(ChartParams params, Catalogue.Scope scope) {
        Set<String> out = new LinkedHashSet<>();
        for (Catalogue.Entry e : params.metrics()) {
            if (e.scope() == scope) {
                e.sources().forEach(s -> out.add(s.metric()));
            }
        }
        return out;
    }

    public Uni<Chart.Response> chart(JobInfo job, ChartParams params, Instant now) {
        return lookups(job.jobId(), params).chain(l -> chart(job, l, params, now));
    }

    public Uni<Chart.Response> chart(JobInfo job, Lookups lookups, ChartParams params, Instant now) {
        Instant[] range = params.range(defaultRange(job, now)[0], defaultRange(job, now)[1]);
        long from = range[0].toEpochMilli();
        long to = range[1].toEpochMilli();
        ResolutionChoice rc = choose(params, from, to, now.toEpochMilli());
        long start = Buckets.align(from, rc.stepMs());
        int n = Buckets.count(start, to, rc.stepMs());
        Set<String> gpuMetrics = metrics(params, Catalogue.Scope.GPU);
        Set<String> nodeMetrics = metrics(params, Catalogue.Scope.NODE);
        List<Placements.Interval> mine = lookups.mine();
        List<Placements.Interval> otherIntervals = lookups.others();
        String[] nodes = mine.stream().map(Placements.Interval::node).distinct().toArray(String[]::new);
        List<SeriesRef> candidates = lookups.candidates();
        List<SeriesRef> gpuCandidates = candidates.stream().filter(s -> gpuMetrics.contains(s.metric())).toList();
        List<SeriesRef> nodeCandidates = candidates.stream().filter(s -> nodeMetrics.contains(s.metric())).toList();
        Attribution.Result g = Attribution.attribute(job.pods(), job.namespace(), mine, otherIntervals,
                gpuCandidates, true, from, to);
        Attribution.Result nd = Attribution.attribute(job.pods(), job.namespace(), mine, otherIntervals,
                nodeCandidates, false, from, to);
        List<Attribution.Attributed> attributed = new ArrayList<>(g.series());
        attributed.addAll(nd.series());
        List<Attribution.Unattributed> left = new ArrayList<>(g.unattributed());
        left.addAll(nd.unattributed());
        return Uni.combine().all().unis(read(attributed, rc, start, to),
                xidLines(params, job, mine, otherIntervals, nodes, start, to, n, rc)).asTuple().map(t2 -> {
                    ChartEngine.Data data = t2.getItem1();
                    List<Chart.Series> lines = new ArrayList<>();
                    for (Catalogue.Entry e : params.metrics()) {
                        if ("xid".equals(e.special())) {
                            lines.addAll(t2.getItem2());
                            continue;
                        }
                        List<Attribution.Attributed> mineForEntry = attributed.stream()
                                .filter(a -> ChartEngine.sourceOf(e, a) != null).toList();
                        lines.addAll(ChartEngine.lines(e, mineForEntry, data, rc, start, n, params.aggregation(),
                                params.groupBy()));
                    }
                    return new Chart.Response(job.jobId(), null, range[0], range[1], rc.stepMs() / 1000,
                            rc.source().label, params.aggregation().name().toLowerCase(),
                            params.groupBy().name().toLowerCase(), lines, attribution(attributed, from, to), left);
                });
    }

    ResolutionChoice choose(ChartParams params, long from, long to, long now) {
        long today = Resolution.day(now);
        long rawFrom = today - (config.storage().rawRetentionDays() - 1L) * Resolution.DAY_MS;
        long minuteFrom = today - (config.storage().rollup1mRetentionDays() - 1L) * Resolution.DAY_MS;
        return ResolutionChoice.choose(from, to, params.stepMs(), params.maxPoints(),
                config.scrape().interval().toMillis(), rawFrom, minuteFrom);
    }

    Uni<ChartEngine.Data> read(List<Attribution.Attributed> attributed, ResolutionChoice rc, long start, long to) {
        Map<Long, SeriesRef> refs = new LinkedHashMap<>();
        attributed.forEach(a -> refs.put(a.series().id(), a.series()));
        List<SeriesRef> list = List.copyOf(refs.values());
        if (rc.source() == Resolution.RAW) {
            // one step earlier too: a counter's first increase needs the sample before the range
            return store.raw(list, start - rc.stepMs(), to).map(raw -> new ChartEngine.Data(raw, Map.of()));
        }
        return store.rollups(list, rc.source(), start, to).map(r -> new ChartEngine.Data(Map.of(), r));
    }

    private Uni<List<Chart.Series>> xidLines(ChartParams params, JobInfo job, List<Placements.Interval> mine,
            List<Placements.Interval> others, String[] nodes, long start, long to, int n, ResolutionChoice rc) {
        if (params.metrics().stream().noneMatch(e -> "xid".equals(e.special())) || nodes.length == 0) {
            return Uni.createFrom().item(List.of());
        }
        return xids.onNodes(nodes, start, to).map(events -> {
            Map<Integer, double[]> byCode = new java.util.TreeMap<>();
            for (XidEvents.Event e : events) {
                boolean ours = e.pod() != null ? job.pods().contains(e.pod()) : exclusive(mine, others, e.node(), e.tsMs());
                if (!ours) {
                    continue;
                }
                int b = Buckets.index(e.tsMs(), start, rc.stepMs(), n);
                if (b >= 0) {
                    double[] v = byCode.computeIfAbsent(e.code(), k -> new double[n]);
                    v[b] += e.count();
                }
            }
            List<Chart.Series> out = new ArrayList<>();
            byCode.forEach((code, v) -> {
                List<Object[]> points = new ArrayList<>();
                for (int b = 0; b < n; b++) {
                    if (v[b] > 0) {
                        points.add(new Object[] {Instant.ofEpochMilli(start + b * rc.stepMs()), v[b]});
                    }
                }
                out.add(new Chart.Series("xid", "events", Map.of("code", String.valueOf(code)), "events", points));
            });
            return out;
        });
    }

    static boolean exclusive(List<Placements.Interval> mine, List<Placements.Interval> others, String node, long t) {
        return mine.stream().anyMatch(i -> i.node().equals(node) && i.covers(t))
                && others.stream().noneMatch(i -> i.node().equals(node) && i.covers(t));
    }

    /** Each series once, the first time it comes (a job's pod's series on a node it ran on comes twice). */
    static List<SeriesRef> dedupe(List<SeriesRef> series) {
        Map<Long, SeriesRef> out = new LinkedHashMap<>();
        series.forEach(s -> out.putIfAbsent(s.id(), s));
        return List.copyOf(out.values());
    }

    static List<Chart.Attributed> attribution(List<Attribution.Attributed> attributed, long from, long to) {
        Map<String, Chart.Attributed> out = new LinkedHashMap<>();
        for (Attribution.Attributed a : attributed) {
            String key = a.series().node() + "/" + a.series().gpu() + "/" + a.pod() + "/" + a.method();
            long f = from;
            long t = to;
            if (a.valid() != null && !a.valid().isEmpty()) {
                f = Math.max(from, a.valid().get(0)[0]);
                t = Math.min(to, a.valid().get(a.valid().size() - 1)[1]);
            }
            out.putIfAbsent(key, new Chart.Attributed(a.series().node(), a.series().gpu(), a.pod(), a.method(),
                    Instant.ofEpochMilli(f), Instant.ofEpochMilli(t)));
        }
        return List.copyOf(out.values());
    }
}
