package io.jobmon.metrics.alerting;

import io.jobmon.metrics.config.MetricsConfig;
import io.jobmon.metrics.jobs.JobInfo;
import io.jobmon.metrics.query.Aggregation;
import io.jobmon.metrics.query.Catalogue;
import io.jobmon.metrics.query.Chart;
import io.jobmon.metrics.query.ChartParams;
import io.jobmon.metrics.query.GroupBy;
import io.jobmon.metrics.query.JobMetricsService;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;

/**
 * A running job's GPUs right now, from its attributed series at full resolution over the idle window: how many,
 * their average utilisation at the latest sample, and how many stayed under the idle threshold for the whole
 * window (10 min, 5 % by default).
 */
@ApplicationScoped
public class GpuState {

    /** {@code utilization} null when no GPU reported in the window. */
    public record Now(int gpus, Double utilization, int idle) {
    }

    private final JobMetricsService charts;
    private final MetricsConfig config;

    public GpuState(JobMetricsService charts, MetricsConfig config) {
        this.charts = charts;
        this.config = config;
    }

    public Uni<Now> of(JobInfo job, Instant now) {
        long window = config.jobs().idleFor().toMillis();
        long scrape = config.scrape().interval().toMillis();
        Instant from = now.minusMillis(window);
        ChartParams p = new ChartParams(List.of(Catalogue.get("gpu_util")), from, now, scrape, 1000, GroupBy.GPU,
                Aggregation.MAX);
        return charts.chart(job, p, now).map(c -> of(c, from.toEpochMilli(), scrape, config.jobs().idleBelowPercent(),
                job.gpuCount()));
    }

    static Now of(Chart.Response c, long fromMs, long scrapeMs, double idleBelow, int allocated) {
        int idle = 0;
        double sum = 0;
        int reporting = 0;
        for (Chart.Series s : c.series()) {
            if (s.points().isEmpty()) {
                continue;
            }
            Object[] last = s.points().get(s.points().size() - 1);
            sum += ((Number) last[1]).doubleValue();
            reporting++;
            boolean covered = ((Instant) s.points().get(0)[0]).toEpochMilli() <= fromMs + 2 * scrapeMs;
            boolean allLow = s.points().stream().allMatch(pt -> ((Number) pt[1]).doubleValue() < idleBelow);
            if (covered && allLow) {
                idle++;
            }
        }
        return new Now(Math.max(reporting, allocated), reporting == 0 ? null : sum / reporting, idle);
    }
}
