package io.jobmon.metrics.query;

import io.jobmon.metrics.alerting.GpuState;
import io.jobmon.metrics.config.MetricsConfig;
import io.jobmon.metrics.jobs.JobInfo;
import io.jobmon.metrics.jobs.JobRepository;
import io.jobmon.metrics.store.SeriesStore;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
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

    private final Pool pool;
    private final SeriesStore store;
    private final JobRepository jobs;
    private final GpuState gpus;
    private final MetricsConfig config;

    public OverviewService(Pool pool, SeriesStore store, JobRepository jobs, GpuState gpus, MetricsConfig config) {
        this.pool = pool;
        this.store = store;
        this.jobs = jobs;
        this.gpus = gpus;
        this.config = config;
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

    /**
     * GPUs: every GPU reporting in the range counts once in the total of its pool (its exporter's {@code pool} label;
     * without one, the queue of the running job holding it, else no pool), and once in the allocated figure of that
     * pool while a pod of one of the tenant's running jobs holds it now ({@code gpu_holding}), so that allocated
     * never exceeds total. Jobs: pending and running per cluster and queue (the job's resource pool); the scheduling
     * latency from submission to start (a start a cluster reports before the submission counts as 0).
     */
    public Uni<Overview> overview(String tenant, Instant from, Instant to, Instant now) {
        Map<String, Acc> acc = new ConcurrentHashMap<>();
        List<SeriesStore.GpuPresent> present = new ArrayList<>();
        Uni<Void> totals = store.gpusPresent(from.toEpochMilli() - PRESENT_SLACK_MS, to.toEpochMilli())
                .invoke(present::addAll).replaceWithVoid();
        List<String> live = new ArrayList<>(WAITING);
        live.addAll(RUNNING);
        List<JobInfo> running = new ArrayList<>();
        Uni<Void> now0 = jobs.byStatus(tenant, live).chain(list -> {
            for (JobInfo j : list) {
                Acc a = acc(acc, j.cluster(), j.queue());
                if (WAITING.contains(j.status())) {
                    a.pending++;
                } else {
                    a.running++;
                    running.add(j);
                }
            }
            return Multi.createFrom().iterable(running).onItem()
                    .transformToUni(j -> gpus.of(j, now).invoke(s -> acc(acc, j.cluster(), j.queue()).idle += s.idle())
                            .onFailure().recoverWithNull())
                    .merge(4).collect().last().replaceWithVoid();
        });
        Uni<Void> held = now0.chain(() -> held(running, now)).invoke(holders -> {
            for (SeriesStore.GpuPresent g : present) {
                JobInfo j = holders.get(g.node() + "/" + g.gpu());
                String cluster = g.cluster() != null ? g.cluster() : j != null ? j.cluster() : null;
                String p = g.pool() != null ? g.pool() : j != null ? j.queue() : null;
                Acc a = acc(acc, cluster, p);
                a.total++;
                if (j != null) {
                    a.allocated++;
                }
            }
        }).replaceWithVoid();
        Uni<Void> range = jobs.activeIn(tenant, from, to).invoke(list -> {
            for (JobInfo j : list) {
                Acc a = acc(acc, j.cluster(), j.queue());
                if (j.startedAt() != null && j.submittedAt() != null && !j.startedAt().isBefore(from)
                        && j.startedAt().isBefore(to)) {
                    a.latencies.add(latencyMs(j.submittedAt(), j.startedAt()));
                }
                if (j.finishedAt() != null && !j.finishedAt().isBefore(from) && j.finishedAt().isBefore(to)) {
                    a.finished++;
                    if ("FAILED".equals(j.status()) || "ABNORMAL".equals(j.status())) {
                        a.failed++;
                    }
                }
            }
        }).replaceWithVoid();
        return totals.chain(() -> held).chain(() -> range).map(x -> {
            List<Overview.Pool> pools = new ArrayList<>();
            new TreeMap<>(acc).forEach((key, a) -> {
                String[] cp = key.split("\u0000", -1);
                a.latencies.sort(Long::compare);
                pools.add(new Overview.Pool(cp[0].isEmpty() ? null : cp[0], cp[1].isEmpty() ? null : cp[1], a.total,
                        a.allocated, Math.min(a.idle, a.allocated), a.pending, a.running, a.latencies.size(),
                        percentile(a.latencies, 0.50), percentile(a.latencies, 0.99), a.finished, a.failed,
                        a.finished == 0 ? null : ChartEngine.round((double) a.failed / a.finished)));
            });
            return new Overview(tenant, from, to, pools);
        });
    }

    /**
     * Submission to start, never negative: a cluster reports the start cut to the second (or by its own clock),
     * so a job started within the second of its submission may read as started before it (as job-service's
     * queue time).
     */
    static long latencyMs(Instant submitted, Instant started) {
        return Math.max(0, Duration.between(submitted, started).toMillis());
    }

    /** The running jobs' GPUs held now ({@code node/gpu} → the job), each GPU once. */
    private Uni<Map<String, JobInfo>> held(List<JobInfo> running, Instant now) {
        Map<String, JobInfo> byPod = new java.util.HashMap<>();
        running.forEach(j -> j.pods().forEach(p -> byPod.put(p, j)));
        if (byPod.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        long since = now.toEpochMilli() - config.holdings().gap().toMillis() - config.scrape().interval().toMillis();
        return pool.preparedQuery("SELECT DISTINCT ON (node, gpu) node, gpu, pod FROM gpu_holding"
                + " WHERE to_ms IS NULL AND last_ms >= $2 AND pod = ANY($1) ORDER BY node, gpu, from_ms DESC")
                .execute(Tuple.of(byPod.keySet().toArray(String[]::new), since)).map(rows -> {
                    Map<String, JobInfo> out = new java.util.HashMap<>();
                    for (Row r : rows) {
                        out.put(r.getString("node") + "/" + r.getString("gpu"), byPod.get(r.getString("pod")));
                    }
                    return out;
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
