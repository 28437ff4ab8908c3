package io.jobmon.metrics.query;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.jobmon.contracts.access.JobAccess;
import io.jobmon.contracts.readmodel.JobAccessStore;
import io.jobmon.metrics.jobs.JobInfo;
import io.jobmon.metrics.jobs.JobRepository;
import io.jobmon.metrics.jobs.Placements;
import io.jobmon.metrics.store.ChangeNotices;
import io.jobmon.metrics.store.NewSeriesNotices;
import io.jobmon.metrics.store.SettledReads;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a job chart reads of a job before its samples: the job's access facts, its facts and the chart's
 * {@link JobMetricsService.Lookups}. Read side by side in one round trip, and kept in this replica's memory for the
 * next chart of the job while no change notice ({@link ChangeNotices}) names the job, one of its nodes (who else ran
 * there, which series it has) or one of its pods (a series labelled with it). A replica that does not hear notices
 * reads every time. The access rule is applied to the facts on every call.
 */
@ApplicationScoped
public class JobViews {

    /** A job as a chart sees it: access facts and facts (empty when unknown or deleted), and the lookups. */
    public record View(Optional<JobAccess> access, Optional<JobInfo> info, JobMetricsService.Lookups lookups) {
    }

    /** {@code forMs}: how long it is kept at most without a notice. */
    private record Kept(View view, long seq, List<String> tokens, long atMs, long forMs) {
    }

    private final JobAccessStore access;
    private final JobRepository jobs;
    private final JobMetricsService charts;
    private final ChangeNotices notices;
    /** Bounded by the series and intervals held (a job on many nodes holds thousands of candidate series). */
    private final Cache<String, Kept> kept = Caffeine.newBuilder().maximumWeight(200_000)
            .weigher((String key, Kept k) -> 1 + k.view().lookups().candidates().size() + k.view().lookups().mine().size()
                    + k.view().lookups().others().size() + k.view().lookups().held().size())
            .build();

    /**
     * A series new to an engine fires a notice when jobmon's forwarder sent it ({@link NewSeriesNotices}), none when
     * another writer did: a view is kept {@code prometheus.view-refresh} at most then (ADR 0057).
     */
    private final long keepMs;
    /**
     * A view read again after a notice is kept this long (a scrape interval) until a read finds it unchanged: an
     * engine may show a noticed series later than {@link SettledReads#VISIBLE_MS} (VictoriaMetrics' index, loaded).
     */
    private final long afterNoticeMs;
    /** In prometheus mode: an engine shows a series a moment after the notice, so a read counts as begun before. */
    private final SettledReads settled;

    public JobViews(JobAccessStore access, JobRepository jobs, JobMetricsService charts, ChangeNotices notices,
            io.jobmon.metrics.config.MetricsConfig config, SettledReads settled) {
        boolean external = io.jobmon.metrics.store.SeriesStores.external(config);
        this.keepMs = external ? config.prometheus().viewRefresh().toMillis() : Long.MAX_VALUE;
        this.afterNoticeMs = external ? config.scrape().interval().toMillis() : Long.MAX_VALUE;
        this.settled = external ? settled : null;
        this.access = access;
        this.jobs = jobs;
        this.charts = charts;
        this.notices = notices;
    }

    public Uni<View> get(String jobId, ChartParams params) {
        String key = jobId + "\n" + new TreeSet<>(params.metrics().stream().map(Catalogue.Entry::name).toList());
        Kept k = kept.getIfPresent(key);
        if (k != null && System.currentTimeMillis() - k.atMs() < k.forMs()
                && k.tokens().stream().noneMatch(t -> notices.changedSince(k.seq(), t))) {
            return Uni.createFrom().item(k.view());
        }
        long at = System.currentTimeMillis();
        // before the statements are sent: a change they miss is heard after it (prometheus mode: one heard in the
        // moment before too, as the engine may not show the series of a notice yet; none such yet: not kept)
        long seq = settled == null ? notices.seq() : settled.trustedSeq(at);
        return Uni.combine().all().unis(access.find(jobId), jobs.find(jobId), charts.lookups(jobId, params)).asTuple()
                .map(t -> {
                    View read = new View(t.getItem1(), t.getItem2(), t.getItem3());
                    // read again unchanged (prometheus mode reads each interval): the same view, so what was kept of
                    // its charts stays theirs (KeptCharts, ADR 0056)
                    View view = k != null && same(k.view(), read) ? k.view() : read;
                    if (notices.listening() && seq != Long.MIN_VALUE) {
                        // a first read, a changed view, or one read on a notice: kept a scrape interval only
                        boolean aged = k != null && view == k.view() && at - k.atMs() >= k.forMs();
                        kept.put(key, new Kept(view, seq, tokens(jobId, view), at, aged ? keepMs : afterNoticeMs));
                    }
                    return view;
                });
    }

    /** Whether two reads of a job's view found the same. */
    static boolean same(View a, View b) {
        JobMetricsService.Lookups x = a.lookups();
        JobMetricsService.Lookups y = b.lookups();
        return a.access().equals(b.access()) && a.info().equals(b.info()) && x.mine().equals(y.mine())
                && x.candidates().equals(y.candidates()) && x.others().equals(y.others()) && x.held().equals(y.held());
    }

    /** The notices that change a view: the job's own, its nodes' and its pods'. */
    static List<String> tokens(String jobId, View view) {
        Set<String> out = new LinkedHashSet<>();
        out.add("job:" + jobId);
        for (Placements.Interval i : view.lookups().mine()) {
            out.add("node:" + i.node());
        }
        view.lookups().held().forEach(h -> out.add("node:" + h.node()));
        view.info().ifPresent(info -> info.pods().forEach(p -> out.add("pod:" + p)));
        return new ArrayList<>(out);
    }

    /** Forgets every kept view (tests). */
    void clear() {
        kept.invalidateAll();
    }
}
