package io.jobmon.logs.retention;

import io.jobmon.logs.chunk.ChunkPartitions;
import io.jobmon.logs.chunk.ChunkRef;
import io.jobmon.logs.chunk.ChunkStore;
import io.jobmon.logs.config.LogsConfig;
import io.jobmon.logs.intake.IngestMetrics;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * Expiry, chunk by chunk or partition by partition, never line by line:
 * <ul>
 * <li>a job's logs go {@code retention.days} (per tenant: {@code retention.tenants.<t>}) after it ended, or when it is
 * deleted: its chunks are removed and the job marked expired (its queries answer 410 from then on); running jobs
 * keep everything;</li>
 * <li>a node's system chunks go once older than the longest retention and no kept job ran on the node then;</li>
 * <li>lines of jobs nobody announced within {@code intake.unknown-job-grace} are dropped and counted;</li>
 * <li>pod identities and GPU holdings (attribution/) go with the longest retention, unless a kept job's pod;</li>
 * <li>day partitions left empty are dropped.</li>
 * </ul>
 */
@ApplicationScoped
public class RetentionJob {

    private static final Logger LOG = Logger.getLogger(RetentionJob.class);
    private static final String DAYS = "coalesce((SELECT d FROM unnest($1::text[], $2::int[]) AS t(tenant, d)"
            + " WHERE t.tenant = j.tenant), $3)";
    private static final String DUE = "SELECT job_id FROM job_info j WHERE expired_at IS NULL AND (deleted OR"
            + " (finished_at IS NOT NULL AND finished_at + make_interval(days => " + DAYS + ") < $4)) LIMIT 500";
    private static final String DROP_JOBS = "DELETE FROM chunk WHERE job_id = ANY($1::text[]) AND kind = 'u' RETURNING day, id, lines";
    private static final String MARK = "UPDATE job_info SET expired_at = $2 WHERE job_id = ANY($1::text[])";
    private static final String DROP_SYSTEM = "DELETE FROM chunk c WHERE c.kind = 's' AND c.max_time < $1 AND NOT EXISTS ("
            + " SELECT 1 FROM job_info j WHERE j.expired_at IS NULL AND NOT j.deleted AND c.node = ANY(j.nodes)"
            + " AND (j.finished_at IS NULL OR extract(epoch FROM j.finished_at) * 1e9 + 6e11 >= c.min_time)"
            + " AND coalesce(extract(epoch FROM coalesce(j.submitted_at, j.started_at)) * 1e9, 0) <= c.max_time)"
            + " RETURNING day, id, lines";
    private static final String DROP_UNKNOWN = "DELETE FROM chunk c WHERE c.kind = 'u' AND c.created_at < $1"
            + " AND c.created_at >= $1 - interval '2 days' AND (c.job_id IS NULL"
            + " OR NOT EXISTS (SELECT 1 FROM job_info j WHERE j.job_id = c.job_id AND j.expired_at IS NULL))"
            + " RETURNING day, id, lines, job_id";

    private static final String DROP_IDENTITIES = "DELETE FROM pod_identity i WHERE i.seen_at < $1 AND NOT EXISTS ("
            + " SELECT 1 FROM job_pod p JOIN job_info j ON j.job_id = p.job_id WHERE p.pod = i.pod AND j.expired_at IS NULL)";
    private static final String DROP_HOLDINGS = "DELETE FROM gpu_holding WHERE to_time < $1";

    private final Pool pool;
    private final ChunkStore store;
    private final ChunkPartitions partitions;
    private final IngestMetrics metrics;
    private final LogsConfig config;

    public RetentionJob(Pool pool, ChunkStore store, ChunkPartitions partitions, IngestMetrics metrics, LogsConfig config) {
        this.pool = pool;
        this.store = store;
        this.partitions = partitions;
        this.metrics = metrics;
        this.config = config;
    }

    void onStart(@Observes StartupEvent start) {
        partitions.ensure(ChunkPartitions.day(Instant.now())).await().atMost(Duration.ofSeconds(30));
        expire(Instant.now()).subscribe().with(v -> { }, e -> LOG.warnf("log expiry at start failed: %s", e.toString()));
    }

    @Scheduled(cron = "${jobmon.logs.retention.cron:0 17 0 * * ?}", timeZone = "UTC",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> daily() {
        return expire(Instant.now()).onFailure().invoke(e -> LOG.warnf("log expiry failed: %s", e.toString()))
                .onFailure().recoverWithNull().replaceWithVoid();
    }

    @Scheduled(every = "1m", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> unknownSweep() {
        return dropUnknown(config.intake().unknownJobGrace()).onFailure().recoverWithNull().replaceWithVoid();
    }

    /** What one expiry run removed. */
    public record Expired(int jobs, long chunks, List<LocalDate> partitionsDropped) {
    }

    /** Expires jobs and system chunks past retention at {@code now}, then drops empty day partitions. */
    public Uni<Expired> expire(Instant now) {
        Map<String, Integer> tenants = config.retention().tenants();
        String[] names = tenants.keySet().toArray(String[]::new);
        Integer[] days = tenants.values().toArray(Integer[]::new);
        int longest = Math.max(config.retention().days(), tenants.values().stream().mapToInt(Integer::intValue).max().orElse(0));
        long systemCutoff = io.jobmon.logs.intake.Times.nanos(now.minus(Duration.ofDays(longest)));
        return pool.preparedQuery(DUE).execute(Tuple.of(names, days, config.retention().days(), now.atOffset(java.time.ZoneOffset.UTC)))
                .chain(rows -> {
                    List<String> jobs = new ArrayList<>();
                    rows.forEach(r -> jobs.add(r.getString("job_id")));
                    if (jobs.isEmpty()) {
                        return Uni.createFrom().item(new long[] {0, 0});
                    }
                    String[] ids = jobs.toArray(String[]::new);
                    return pool.withTransaction(conn -> conn.preparedQuery(DROP_JOBS).execute(Tuple.of((Object) ids))
                            .call(deleted -> deleteBodies(conn, deleted))
                            .call(() -> conn.preparedQuery(MARK).execute(Tuple.of(ids, now.atOffset(java.time.ZoneOffset.UTC))))
                            .map(deleted -> new long[] {jobs.size(), deleted.rowCount()}));
                })
                .chain(j -> pool.withTransaction(conn -> conn.preparedQuery(DROP_SYSTEM).execute(Tuple.of(systemCutoff))
                        .call(deleted -> deleteBodies(conn, deleted))).map(s -> new long[] {j[0], j[1] + s.rowCount()}))
                .call(() -> pool.preparedQuery(DROP_IDENTITIES).execute(Tuple.of(now.minus(Duration.ofDays(longest))
                        .atOffset(java.time.ZoneOffset.UTC))))
                .call(() -> pool.preparedQuery(DROP_HOLDINGS).execute(Tuple.of(now.minus(Duration.ofDays(longest))
                        .atOffset(java.time.ZoneOffset.UTC))))
                .chain(n -> dropEmptyPartitions(now).map(dropped -> new Expired((int) n[0], n[1], dropped)))
                .invoke(e -> {
                    if (e.jobs() > 0 || e.chunks() > 0 || !e.partitionsDropped().isEmpty()) {
                        LOG.infof("log expiry: %d jobs, %d chunks, partitions %s", e.jobs(), e.chunks(), e.partitionsDropped());
                    }
                });
    }

    /** Drops the user chunks of jobs not announced within {@code grace}; @return the lines dropped. */
    public Uni<Long> dropUnknown(Duration grace) {
        var before = Instant.now().minus(grace).atOffset(java.time.ZoneOffset.UTC);
        return pool.withTransaction(conn -> conn.preparedQuery(DROP_UNKNOWN).execute(Tuple.of(before))
                .call(deleted -> deleteBodies(conn, deleted))
                .map(deleted -> {
                    long lines = 0;
                    for (Row r : deleted) {
                        lines += r.getInteger("lines");
                    }
                    return lines;
                }))
                .invoke(lines -> {
                    if (lines > 0) {
                        metrics.unknownJobDropped(lines);
                        LOG.infof("dropped %d lines of jobs not known after %s", lines, grace);
                    }
                });
    }

    private Uni<Void> deleteBodies(SqlConnection conn, RowSet<Row> deleted) {
        List<ChunkRef> refs = new ArrayList<>();
        for (Row r : deleted) {
            refs.add(new ChunkRef(r.getLocalDate("day"), r.getLong("id")));
        }
        return store.delete(conn, refs);
    }

    private Uni<List<LocalDate>> dropEmptyPartitions(Instant now) {
        LocalDate today = ChunkPartitions.day(now);
        return partitions.days().chain(days -> Multi.createFrom().iterable(days.stream().filter(d -> d.isBefore(today)).toList())
                .onItem().transformToUniAndConcatenate(d -> partitions.dropIfEmpty(d).map(dropped -> dropped ? d : null))
                .filter(d -> d != null).collect().asList());
    }
}
