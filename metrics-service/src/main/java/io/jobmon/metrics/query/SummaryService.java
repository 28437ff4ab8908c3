package io.jobmon.metrics.query;

import io.jobmon.metrics.config.MetricsConfig;
import io.jobmon.metrics.jobs.JobInfo;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Computes a job's {@link Summary} over its run time from its per-GPU minute charts (1-minute rollups; hours for
 * a run older than their retention): the same series and attribution as its charts.
 */
@ApplicationScoped
public class SummaryService {

    private final JobMetricsService charts;
    private final MetricsConfig config;

    public SummaryService(JobMetricsService charts, MetricsConfig config) {
        this.charts = charts;
        this.config = config;
    }

    /** Per GPU: minute averages of utilisation and the peaks. */
    static final class Gpu {
        String pod;
        double utilSum;
        double minutes;
        double idleMinutes;
        Double peakUtil;
        Double peakMem;
    }

    public Uni<Summary> compute(JobInfo job, Instant now, boolean finalSummary) {
        Instant[] range = JobMetricsService.defaultRange(job, now);
        if (job.startedAt() == null) {
            return Uni.createFrom().item(new Summary(job.jobId(), finalSummary, now, range[0], range[1], 0, null, null,
                    null, 0, 0, List.of()));
        }
        if (job.finishedAt() == null) {
            range[0] = job.startedAt(); // the whole run so far, not just the chart's default 3 days
        }
        long step = Duration.ofMinutes(1).toMillis();
        ChartParams avg = new ChartParams(List.of(Catalogue.get("gpu_util")), range[0], range[1], step, 1000,
                GroupBy.GPU, Aggregation.AVG);
        ChartParams max = new ChartParams(List.of(Catalogue.get("gpu_util"), Catalogue.get("gpu_mem_used")), range[0],
                range[1], step, 1000, GroupBy.GPU, Aggregation.MAX);
        return charts.chart(job, avg, now).chain(a -> charts.chart(job, max, now).map(m -> {
            Map<String, Gpu> gpus = new LinkedHashMap<>();
            Map<String, String> pods = new HashMap<>();
            a.attribution().forEach(x -> pods.putIfAbsent(x.node() + "/" + x.gpu(), x.pod()));
            long stepMs = a.stepSeconds() * 1000;
            double idleBelow = config.jobs().idleBelowPercent();
            for (Chart.Series s : a.series()) {
                Gpu g = gpu(gpus, pods, s);
                for (Object[] p : s.points()) {
                    double v = ((Number) p[1]).doubleValue();
                    double minutes = minutesIn(((Instant) p[0]).toEpochMilli(), stepMs, range[0], range[1]);
                    g.utilSum += v * minutes;
                    g.minutes += minutes;
                    if (v < idleBelow) {
                        g.idleMinutes += minutes;
                    }
                }
            }
            for (Chart.Series s : m.series()) {
                Gpu g = gpu(gpus, pods, s);
                for (Object[] p : s.points()) {
                    double v = ((Number) p[1]).doubleValue();
                    if (s.metric().equals("gpu_util")) {
                        g.peakUtil = g.peakUtil == null ? v : Math.max(g.peakUtil, v);
                    } else {
                        g.peakMem = g.peakMem == null ? v : Math.max(g.peakMem, v);
                    }
                }
            }
            double runHours = Duration.between(range[0], range[1]).toMillis() / 3_600_000.0;
            // the job's GPU-hours are its pods' (the same GPUs over the same minutes); the allocation only without data
            Summary.Pod all = figures(null, List.copyOf(gpus.values()), gpus.isEmpty() ? job.gpuCount() : 0, runHours);
            Map<String, List<Gpu>> byPod = new LinkedHashMap<>();
            gpus.values().forEach(g -> byPod.computeIfAbsent(g.pod == null ? "" : g.pod, k -> new ArrayList<>()).add(g));
            List<Summary.Pod> perPod = new ArrayList<>();
            byPod.forEach((pod, list) -> perPod.add(figures(pod.isEmpty() ? null : pod, list, 0, runHours)));
            double gpuHours = perPod.isEmpty() ? all.gpuHours()
                    : ChartEngine.round(perPod.stream().mapToDouble(Summary.Pod::gpuHours).sum());
            double idleHours = perPod.isEmpty() ? all.idleGpuHours()
                    : ChartEngine.round(perPod.stream().mapToDouble(Summary.Pod::idleGpuHours).sum());
            return new Summary(job.jobId(), finalSummary, now, range[0], range[1], Math.max(job.gpuCount(), gpus.size()),
                    all.avgGpuUtil(), all.peakGpuUtil(), all.peakGpuMemMiB(), gpuHours, idleHours, perPod);
        }));
    }

    /** Minutes of the bucket [t, t + step) within the run [from, to): a first or last bucket counts in part. */
    static double minutesIn(long t, long stepMs, Instant from, Instant to) {
        long overlap = Math.min(t + stepMs, to.toEpochMilli()) - Math.max(t, from.toEpochMilli());
        return Math.max(0, overlap) / 60_000.0;
    }

    private static Gpu gpu(Map<String, Gpu> gpus, Map<String, String> pods, Chart.Series s) {
        String key = s.group().get("node") + "/" + s.group().get("gpu");
        Gpu g = gpus.computeIfAbsent(key, k -> new Gpu());
        g.pod = pods.get(key);
        return g;
    }

    /** The larger of two figures either of which may be unknown (a nested ?: would unbox a null). */
    static Double max(Double a, Double b) {
        if (a == null) {
            return b;
        }
        return b == null ? a : Double.valueOf(Math.max(a, b));
    }

    /** @param allocated GPUs the job asked for (0: count the GPUs seen and the time they were seen) */
    static Summary.Pod figures(String pod, List<Gpu> gpus, int allocated, double runHours) {
        double util = 0;
        double minutes = 0;
        double idle = 0;
        Double peak = null;
        Double mem = null;
        for (Gpu g : gpus) {
            util += g.utilSum;
            minutes += g.minutes;
            idle += g.idleMinutes;
            peak = max(peak, g.peakUtil);
            mem = max(mem, g.peakMem);
        }
        double gpuHours = allocated > 0 ? allocated * runHours : minutes / 60;
        return new Summary.Pod(pod, gpus.size(), minutes == 0 ? null : ChartEngine.round(util / minutes), peak, mem,
                ChartEngine.round(gpuHours), ChartEngine.round(idle / 60));
    }
}
