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
    private final Holdings holdings;

    public JobMetricsService(JobRepository jobs, SeriesStore store, XidEvents xids, MetricsConfig config,
            Holdings holdings) {
        this.holdings = holdings;
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
    public record Lookups(List<Placements.Interval> mine, List<SeriesRef> candidates, List<Placements.Interval> others,
            List<Holdings.Held> held, String[] nodes) {

        /**
         * The nodes the job ran on or held GPUs on, found once for as long as the lookups are kept ({@link JobViews}):
         * a job holds a GPU in many intervals, and finding them on every chart was most of its own work (ADR 0054).
         */
        public Lookups(List<Placements.Interval> mine, List<SeriesRef> candidates, List<Placements.Interval> others,
                List<Holdings.Held> held) {
            this(mine, candidates, others, held, nodes(mine, held));
        }

        private static String[] nodes(List<Placements.Interval> mine, List<Holdings.Held> held) {
            Set<String> out = new LinkedHashSet<>();
            mine.forEach(i -> out.add(i.node()));
            held.forEach(h -> out.add(h.node()));
            return out.toArray(String[]::new);
        }
    }

    public Uni<Lookups> lookups(String jobId, ChartParams params) {
        Set<String> gpuMetrics = metrics(params, Catalogue.Scope.GPU);
        Set<String> all = new LinkedHashSet<>(gpuMetrics);
        all.addAll(metrics(params, Catalogue.Scope.NODE));
        // labelled with the job's pods: dcgm-exporter's and cAdvisor's series (also those a node metric is answered with)
        Set<String> podMetrics = new LinkedHashSet<>(gpuMetrics);
        podMetrics.addAll(metrics(params, Catalogue.Scope.CONTAINER));
        for (Catalogue.Entry e : params.metrics()) {
            if (e.inJob() != null) {
                Catalogue.get(e.inJob()).sources().forEach(s -> podMetrics.add(s.metric()));
            }
        }
        return Uni.combine().all().unis(jobs.intervals(jobId), store.ofJob(jobId, podMetrics, all), jobs.alongside(jobId),
                holdings.ofJob(jobId)).asTuple().map(t -> new Lookups(t.getItem1(), dedupe(t.getItem2()),
                        t.getItem3().stream().map(JobRepository.JobInterval::interval).toList(), t.getItem4()));
    }

    /** The stored metrics behind the asked ones of this scope. */
    private static Set<String> metrics(ChartParams params, Catalogue.Scope scope) {
        return metrics(params.metrics(), scope);
    }

    private static Set<String> metrics(List<Catalogue.Entry> entries, Catalogue.Scope scope) {
        Set<String> out = new LinkedHashSet<>();
        for (Catalogue.Entry e : entries) {
            if (e.scope() == scope) {
                e.sources().forEach(s -> out.add(s.metric()));
            }
        }
        return out;
    }

    public Uni<Chart.Response> chart(JobInfo job, ChartParams params, Instant now) {
        return lookups(job.jobId(), params).chain(l -> chart(job, l, params, now));
    }

    /** The chart's range: the asked one, else the job's default ({@link #defaultRange}). */
    Instant[] range(JobInfo job, ChartParams params, Instant now) {
        Instant[] byDefault = defaultRange(job, now);
        return params.range(byDefault[0], byDefault[1]);
    }

    public Uni<Chart.Response> chart(JobInfo job, Lookups lookups, ChartParams params, Instant now) {
        Instant[] range = range(job, params, now);
        long from = range[0].toEpochMilli();
        long to = range[1].toEpochMilli();
        ResolutionChoice rc = choose(params, from, to, now.toEpochMilli());
        long start = Buckets.align(from, rc.stepMs());
        int n = Buckets.count(start, to, rc.stepMs());
        List<Catalogue.Entry> entries = ContainerMetrics.inJob(params.metrics(), job, lookups.candidates());
        Set<String> gpuMetrics = metrics(entries, Catalogue.Scope.GPU);
        Set<String> nodeMetrics = metrics(entries, Catalogue.Scope.NODE);
        Set<String> containerMetrics = metrics(entries, Catalogue.Scope.CONTAINER);
        List<Placements.Interval> mine = lookups.mine();
        List<Placements.Interval> otherIntervals = lookups.others();
        List<Holdings.Held> held = lookups.held();
        String[] nodes = lookups.nodes();
        List<SeriesRef> candidates = lookups.candidates();
        List<SeriesRef> gpuCandidates = candidates.stream().filter(s -> gpuMetrics.contains(s.metric())).toList();
        List<SeriesRef> nodeCandidates = candidates.stream().filter(s -> nodeMetrics.contains(s.metric())).toList();
        Attribution.Result g = Attribution.attribute(job.pods(), job.namespace(), mine, otherIntervals,
                gpuCandidates, true, from, to, held);
        Attribution.Result nd = Attribution.attribute(job.pods(), job.namespace(), mine, otherIntervals,
                nodeCandidates, false, from, to, List.of());
        // a container's series is the job's by its pod labels only (no placement: jobs share nodes)
        Attribution.Result ct = Attribution.attribute(job.pods(), job.namespace(), List.of(), List.of(),
                candidates.stream().filter(s -> containerMetrics.contains(s.metric())).toList(), false, from, to,
                List.of());
        List<Attribution.Attributed> attributed = new ArrayList<>(g.series());
        attributed.addAll(nd.series());
        attributed.addAll(ContainerMetrics.keepNetwork(ct.series()));
        List<Attribution.Unattributed> left = new ArrayList<>(g.unattributed());
        left.addAll(nd.unattributed());
        List<Chart.Attributed> xidAttribution = new ArrayList<>();
        return Uni.combine().all().unis(read(attributed, rc, start, to),
                xidLines(params, job, lookups, nodes, start, to, n, rc, xidAttribution)).asTuple().map(t2 -> {
                    ChartEngine.Data data = t2.getItem1();
                    List<Chart.Series> lines = new ArrayList<>();
                    for (Catalogue.Entry e : entries) {
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
                            params.groupBy().name().toLowerCase(), lines, attribution(attributed, xidAttribution, from, to),
                            left);
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
        return store.rollups(list, rc.source(), rc.stepMs(), start, to).map(r -> new ChartEngine.Data(Map.of(), r));
    }

    /**
     * Xid events of the job: labelled with one of its pods ({@code labels}), of a GPU one of its pods held then
     * ({@code gpu}), or on a node it had to itself then ({@code placement}); per code, and per GPU when grouped so.
     */
    private Uni<List<Chart.Series>> xidLines(ChartParams params, JobInfo job, Lookups lookups, String[] nodes,
            long start, long to, int n, ResolutionChoice rc, List<Chart.Attributed> attributedBy) {
        if (params.metrics().stream().noneMatch(e -> "xid".equals(e.special())) || nodes.length == 0) {
            return Uni.createFrom().item(List.of());
        }
        // the Xid that ended a run is scraped after the end: a finished job's chart, to its end by default, takes the
        // events of the minute after it into its last step (as a holding's series, Holdings.AFTER_LAST)
        long late = params.to() == null && job.finishedAt() != null ? Holdings.AFTER_LAST : 0;
        return xids.onNodes(nodes, start, to + late).map(events -> {
            Map<Map<String, String>, double[]> byGroup = new LinkedHashMap<>();
            Map<Map<String, String>, Set<String>> methods = new LinkedHashMap<>();
            for (XidEvents.Event e : events) {
                String method = null;
                String pod = e.pod();
                Holdings.Held h = null;
                if (e.pod() != null) {
                    method = job.pods().contains(e.pod()) ? Attribution.LABELS : null;
                } else if ((h = heldAt(lookups.held(), e)) != null) {
                    method = Attribution.GPU;
                    pod = h.pod();
                } else if (exclusive(lookups.mine(), lookups.others(), e.node(), e.tsMs())) {
                    method = Attribution.PLACEMENT;
                }
                int b = method == null ? -1 : Buckets.index(Math.min(e.tsMs(), to - 1), start, rc.stepMs(), n);
                if (b < 0) {
                    continue;
                }
                Map<String, String> group = new LinkedHashMap<>();
                group.put("code", String.valueOf(e.code()));
                Map<String, String> ids = h == null ? Map.of() : ids(h);
                group.putAll(params.groupBy().labels(e.node(), e.gpu(), pod, ids, true));
                byGroup.computeIfAbsent(group, k -> new double[n])[b] += e.count();
                methods.computeIfAbsent(group, k -> new java.util.HashSet<>()).add(method);
                if (h != null) {
                    attributedBy.add(new Chart.Attributed(h.node(), h.index(), h.pod(), Attribution.GPU,
                            Instant.ofEpochMilli(Math.max(start, h.fromMs())),
                            Instant.ofEpochMilli(h.toMs() == null ? to : Math.min(to, h.toMs() + 1))));
                }
            }
            List<Map<String, String>> groups = new ArrayList<>(byGroup.keySet());
            groups.sort((a, b) -> {
                int c = Integer.compare(Integer.parseInt(a.get("code")), Integer.parseInt(b.get("code")));
                return c != 0 ? c : a.toString().compareTo(b.toString());
            });
            List<Chart.Series> out = new ArrayList<>();
            for (Map<String, String> group : groups) {
                double[] v = byGroup.get(group);
                LinePoints points = new LinePoints(n);
                for (int b = 0; b < n; b++) {
                    if (v[b] > 0) {
                        points.add(start + b * rc.stepMs(), v[b]);
                    }
                }
                Set<String> ms = methods.get(group);
                out.add(new Chart.Series("xid", "events", group, ms.size() == 1 ? ms.iterator().next() : "mixed",
                        points));
            }
            return out;
        });
    }

    /** The holding of the job's pods the event's GPU was in at its time, or null. */
    static Holdings.Held heldAt(List<Holdings.Held> held, XidEvents.Event e) {
        for (Holdings.Held h : held) {
            if (Holdings.heldAt(h, e.node(), e.gpu(), e.tsMs())) {
                return h;
            }
        }
        return null;
    }

    /** dcgm-exporter's identity labels of a held GPU. */
    static Map<String, String> ids(Holdings.Held h) {
        Map<String, String> m = new LinkedHashMap<>();
        if (h.uuid() != null) {
            m.put("UUID", h.uuid());
        }
        if (h.pciBusId() != null) {
            m.put("pci_bus_id", h.pciBusId());
        }
        return m;
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

    static List<Chart.Attributed> attribution(List<Attribution.Attributed> attributed, List<Chart.Attributed> xids,
            long from, long to) {
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
        for (Chart.Attributed x : xids) {
            out.putIfAbsent(x.node() + "/" + x.gpu() + "/" + x.pod() + "/" + x.method(), x);
        }
        return List.copyOf(out.values());
    }
}
