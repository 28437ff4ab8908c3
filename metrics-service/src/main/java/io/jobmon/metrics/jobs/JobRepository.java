package io.jobmon.metrics.jobs;

import io.jobmon.contracts.events.JobSnapshot;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** {@code job_info} and {@code job_node}: the jobs and where they ran. */
@ApplicationScoped
public class JobRepository {

    private static final String UPSERT = "INSERT INTO job_info AS j (job_id, tenant, owner, name, cluster, queue,"
            + " status, gpu_type, gpu_count, namespace, pods, nodes, submitted_at, started_at, finished_at, version,"
            + " deleted) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17)"
            + " ON CONFLICT (job_id) DO UPDATE SET tenant = EXCLUDED.tenant, owner = EXCLUDED.owner,"
            + " name = EXCLUDED.name, cluster = EXCLUDED.cluster, queue = EXCLUDED.queue, status = EXCLUDED.status,"
            + " gpu_type = EXCLUDED.gpu_type, gpu_count = EXCLUDED.gpu_count, namespace = EXCLUDED.namespace,"
            + " pods = EXCLUDED.pods, nodes = EXCLUDED.nodes, submitted_at = EXCLUDED.submitted_at,"
            + " started_at = EXCLUDED.started_at, finished_at = EXCLUDED.finished_at, version = EXCLUDED.version,"
            + " deleted = EXCLUDED.deleted WHERE j.version < EXCLUDED.version RETURNING job_id";
    private static final String COLUMNS = "job_id, tenant, owner, name, cluster, queue, status, gpu_type, gpu_count,"
            + " namespace, pods, nodes, submitted_at, started_at, finished_at";
    private static final String ALONGSIDE = "SELECT o.job_id, o.node, o.from_ms, o.to_ms, o.pods, o.gpus FROM job_node o"
            + " WHERE o.node = ANY(ARRAY(SELECT node FROM job_node WHERE job_id = $1)) AND o.job_id <> $1"
            + " AND EXISTS (SELECT 1 FROM job_node m WHERE m.job_id = $1 AND m.node = o.node"
            + " AND o.from_ms < coalesce(m.to_ms, 9223372036854775807) AND coalesce(o.to_ms, 9223372036854775807) > m.from_ms)"
            + " ORDER BY o.node, o.from_ms";
    private static final String INTERVALS = "SELECT node, from_ms, to_ms, pods, gpus FROM job_node WHERE job_id = $1"
            + " ORDER BY from_ms, node";

    private final Pool pool;

    public JobRepository(Pool pool) {
        this.pool = pool;
    }

    /** Stores the snapshot unless a newer one is stored; true when it was applied. */
    public Uni<Boolean> upsert(SqlClient c, JobSnapshot s) {
        Tuple t = Tuple.tuple().addValue(s.jobId()).addValue(s.tenant()).addValue(s.owner()).addValue(s.name())
                .addValue(s.cluster()).addValue(s.queue()).addValue(s.status() == null ? null : s.status().name())
                .addValue(s.gpuType()).addValue(s.gpuCount()).addValue(s.namespace())
                .addArrayOfString(strings(s.pods())).addArrayOfString(strings(s.nodes()))
                .addValue(odt(s.submittedAt())).addValue(odt(s.startedAt())).addValue(odt(s.finishedAt()))
                .addValue(s.version()).addValue(s.deleted());
        return c.preparedQuery(UPSERT).execute(t).map(rows -> rows.size() == 1);
    }

    public Uni<Void> tombstone(SqlClient c, String jobId) {
        return c.preparedQuery("UPDATE job_info SET deleted = TRUE, summary_due = NULL WHERE job_id = $1")
                .execute(Tuple.of(jobId))
                .chain(() -> c.preparedQuery("DELETE FROM job_summary WHERE job_id = $1").execute(Tuple.of(jobId)))
                .replaceWithVoid();
    }

    public Uni<List<Placements.Interval>> intervals(SqlClient c, String jobId) {
        return c.preparedQuery(INTERVALS).execute(Tuple.of(jobId)).map(JobRepository::intervals);
    }

    static List<Placements.Interval> intervals(RowSet<Row> rows) {
        List<Placements.Interval> out = new ArrayList<>();
        for (Row r : rows) {
            out.add(new Placements.Interval(r.getString("node"), r.getLong("from_ms"), r.getLong("to_ms"),
                    List.of(r.getArrayOfStrings("pods")), r.getInteger("gpus")));
        }
        return out;
    }

    /** The job's intervals (no transaction). */
    public Uni<List<Placements.Interval>> intervals(String jobId) {
        return intervals(pool, jobId);
    }

    /** Intervals of jobs other than {@code jobId} on these nodes overlapping [from, to), with their job ids. */
    public Uni<List<JobInterval>> onNodes(String[] nodes, long fromMs, long toMs, String exceptJob) {
        return pool.preparedQuery("SELECT job_id, node, from_ms, to_ms, pods, gpus FROM job_node WHERE node = ANY($1)"
                + " AND from_ms < $3 AND (to_ms IS NULL OR to_ms > $2) AND ($4::text IS NULL OR job_id <> $4)"
                + " ORDER BY node, from_ms").execute(Tuple.of(nodes, fromMs, toMs, exceptJob)).map(JobRepository::jobIntervals);
    }

    /**
     * Intervals of other jobs that overlap one of {@code jobId}'s on the same node: the jobs its node-level series may
     * have to be shared with ({@link io.jobmon.metrics.query.Attribution}), found by its own intervals.
     */
    public Uni<List<JobInterval>> alongside(String jobId) {
        return pool.preparedQuery(ALONGSIDE).execute(Tuple.of(jobId)).map(JobRepository::jobIntervals);
    }

    static List<JobInterval> jobIntervals(RowSet<Row> rows) {
        List<JobInterval> out = new ArrayList<>();
        for (Row r : rows) {
            out.add(new JobInterval(r.getString("job_id"), new Placements.Interval(r.getString("node"), r.getLong("from_ms"),
                    r.getLong("to_ms"), List.of(r.getArrayOfStrings("pods")), r.getInteger("gpus"))));
        }
        return out;
    }

    /** An interval of some job. */
    public record JobInterval(String jobId, Placements.Interval interval) {
    }

    public Uni<Void> replaceIntervals(SqlClient c, String jobId, List<Placements.Interval> intervals) {
        int n = intervals.size();
        String[] nodes = new String[n];
        Long[] from = new Long[n];
        Long[] to = new Long[n];
        String[] pods = new String[n];
        Integer[] gpus = new Integer[n];
        for (int i = 0; i < n; i++) {
            Placements.Interval p = intervals.get(i);
            nodes[i] = p.node();
            from[i] = p.fromMs();
            to[i] = p.toMs();
            pods[i] = String.join(",", p.pods());
            gpus[i] = p.gpus();
        }
        return c.preparedQuery("DELETE FROM job_node WHERE job_id = $1").execute(Tuple.of(jobId))
                .chain(() -> n == 0 ? Uni.createFrom().voidItem() : c.preparedQuery(
                        "INSERT INTO job_node (job_id, node, from_ms, to_ms, pods, gpus) SELECT $1, n, f, t,"
                                + " coalesce(string_to_array(nullif(p, ''), ','), '{}'), g FROM unnest($2::text[], $3::bigint[],"
                                + " $4::bigint[], $5::text[], $6::int[]) AS u(n, f, t, p, g) ON CONFLICT DO NOTHING")
                        .execute(Tuple.tuple().addValue(jobId).addArrayOfString(nodes).addArrayOfLong(from)
                                .addArrayOfLong(to).addArrayOfString(pods).addArrayOfInteger(gpus))
                        .replaceWithVoid());
    }

    /** Asks for the job's summary {@code delay} after it ended, unless one is stored. */
    public Uni<Void> summaryDue(SqlClient c, String jobId, Instant finishedAt, Duration delay) {
        Instant due = (finishedAt == null ? Instant.now() : finishedAt).plus(delay);
        return c.preparedQuery("UPDATE job_info SET summary_due = $2 WHERE job_id = $1"
                + " AND NOT EXISTS (SELECT 1 FROM job_summary s WHERE s.job_id = $1)")
                .execute(Tuple.of(jobId, odt(due))).replaceWithVoid();
    }

    public Uni<Optional<JobInfo>> find(String jobId) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM job_info WHERE job_id = $1 AND NOT deleted")
                .execute(Tuple.of(jobId)).map(rows -> rows.size() == 0 ? Optional.empty()
                        : Optional.of(info(rows.iterator().next())));
    }

    /** A tenant's jobs (or every tenant's when null) that were not deleted, by status. */
    public Uni<List<JobInfo>> byStatus(String tenant, List<String> statuses) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM job_info WHERE NOT deleted AND status = ANY($1)"
                + " AND ($2::text IS NULL OR tenant = $2)")
                .execute(Tuple.of(statuses.toArray(String[]::new), tenant)).map(JobRepository::infos);
    }

    /** A tenant's jobs submitted, started or finished in [from, to). */
    public Uni<List<JobInfo>> activeIn(String tenant, Instant from, Instant to) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM job_info WHERE NOT deleted AND tenant = $1"
                + " AND ((submitted_at >= $2 AND submitted_at < $3) OR (started_at >= $2 AND started_at < $3)"
                + " OR (finished_at >= $2 AND finished_at < $3))")
                .execute(Tuple.of(tenant, odt(from), odt(to))).map(JobRepository::infos);
    }

    static List<JobInfo> infos(RowSet<Row> rows) {
        List<JobInfo> out = new ArrayList<>();
        rows.forEach(r -> out.add(info(r)));
        return out;
    }

    static JobInfo info(Row r) {
        return new JobInfo(r.getString("job_id"), r.getString("tenant"), r.getString("owner"), r.getString("name"),
                r.getString("cluster"), r.getString("queue"), r.getString("status"), r.getString("gpu_type"),
                r.getInteger("gpu_count"), r.getString("namespace"), Arrays.asList(r.getArrayOfStrings("pods")),
                Arrays.asList(r.getArrayOfStrings("nodes")), instant(r, "submitted_at"), instant(r, "started_at"),
                instant(r, "finished_at"));
    }

    static Instant instant(Row r, String column) {
        OffsetDateTime t = r.getOffsetDateTime(column);
        return t == null ? null : t.toInstant();
    }

    static OffsetDateTime odt(Instant i) {
        return i == null ? null : i.atOffset(ZoneOffset.UTC);
    }

    private static String[] strings(List<String> l) {
        return l == null ? new String[0] : l.toArray(String[]::new);
    }
}
