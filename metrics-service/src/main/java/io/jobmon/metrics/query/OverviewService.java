package io.jobmon.metrics.query;

import io.jobmon.metrics.alerting.GpuState;
import io.jobmon.metrics.jobs.JobInfo;
import io.jobmon.metrics.jobs.JobRepository;
import io.jobmon.metrics.store.SeriesStore;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/** Computes the {@link Overview}: GPU totals from the GPUs reporting, the rest from the tenant's jobs. */
@ApplicationScoped
public class OverviewService {

    static final List<String> WAITING = List.of("PENDING", "QUEUED", "PARTIALLY_PENDING");
    static final List<String> RUNNING = List.of("RUNNING", "STOPPING");
    /** A GPU counts as present when its utilisation series has data this close to the range (compaction lags). */
    static final long PRESENT_SLACK_MS = Duration.ofHours(3).toMillis();

    private final SeriesStore store;
    private final JobRepository jobs;
    private final GpuState gpus;

    public OverviewService(SeriesStore store, JobRepository jobs, GpuState gpus) {
        this.store = store;
        this.jobs = jobs;
        this.gpus = gpus;
    }

    /** Mutable figures of one cluster and pool while they are added up. */
    private static final class Acc {
        int total;
        int allocated;
        int idle;
        int pending;
        int running;
        int finished;
        int failed;
        List<Long> latencies = new ArrayList<>();
    }

    public Uni<Overview> overview(String tenant, Instant from, Instant to, Instant now) {
        Map<String, Acc> acc = new ConcurrentHashMap<>();
        Uni<Void> totals = store.gpuTotals(from.toEpochMilli() - PRESENT_SLACK_MS, to.toEpochMilli()).invoke(list -> {
            for (SeriesStore.GpuTotal t : list) {
                acc(acc, t.cluster(), t.pool()).total += t.gpus();
            }
        }).replaceWithVoid();
        List<String> live = new ArrayList<>(WAITING);
        live.addAll(RUNNING);
        Uni<Void> now0 = jobs.byStatus(tenant, live).chain(list -> {
            List<JobInfo> running = new ArrayList<>();
            for (JobInfo j : list) {
                Acc a = acc(acc, j.cluster(), j.queue());
                if (WAITING.contains(j.status())) {
                    a.pending++;
                } else {
                    a.running++;
                    a.allocated += j.gpuCount();
                    running.add(j);
                }
            }
            return Multi.createFrom().iterable(running).onItem()
                    .transformToUni(j -> gpus.of(j, now).invoke(s -> acc(acc, j.cluster(), j.queue()).idle += s.idle())
                            .onFailure().recoverWithNull())
                    .merge(4).collect().last().replaceWithVoid();
        });
        Uni<Void> range = jobs.activeIn(tenant, from, to).invoke(list -> {
            for (JobInfo j : list) {
                Acc a = acc(acc, j.cluster(), j.queue());
                if (j.startedAt() != null && j.submittedAt() != null && !j.startedAt().isBefore(from)
                        && j.startedAt().isBefore(to)) {
                    a.latencies.add(Duration.between(j.submittedAt(), j.startedAt()).toMillis());
                }
                if (j.finishedAt() != null && !j.finishedAt().isBefore(from) && j.finishedAt().isBefore(to)) {
                    a.finished++;
                    if ("FAILED".equals(j.status()) || "ABNORMAL".equals(j.status())) {
                        a.failed++;
                    }
                }
            }
        }).replaceWithVoid();
        return totals.chain(() -> now0).chain(() -> range).map(x -> {
            List<Overview.Pool> pools = new ArrayList<>();
            new TreeMap<>(acc).forEach((key, a) -> {
                String[] cp = key.split("\u0000", -1);
                a.latencies.sort(Long::compare);
                pools.add(new Overview.Pool(cp[0].isEmpty() ? null : cp[0], cp[1].isEmpty() ? null : cp[1], a.total,
                        a.allocated, a.idle, a.pending, a.running, a.latencies.size(), percentile(a.latencies, 0.50),
                        percentile(a.latencies, 0.99), a.finished, a.failed,
                        a.finished == 0 ? null : ChartEngine.round((double) a.failed / a.finished)));
            });
            return new Overview(tenant, from, to, pools);
        });
    }

    private static Acc acc(Map<String, Acc> acc, String cluster, String pool) {
        return acc.computeIfAbsent((cluster == null ? "" : cluster) + "\u0000" + (pool == null ? "" : pool), k -> new Acc());
    }

    /** Nearest-rank percentile in seconds; null without data. */
    static Double percentile(List<Long> sortedMs, double q) {
        if (sortedMs.isEmpty()) {
            return null;
        }
        int rank = (int) Math.ceil(q * sortedMs.size());
        return sortedMs.get(Math.max(0, Math.min(sortedMs.size() - 1, rank - 1))) / 1000.0;
    }
}
