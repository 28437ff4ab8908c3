package io.jobmon.logs.jobs;

import static io.jobmon.logs.Sql.instant;
import static io.jobmon.logs.Sql.ts;

import io.jobmon.contracts.events.JobSnapshot;
import io.jobmon.contracts.readmodel.JobChanges;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The jobs' facts from {@code jobmon.job.changes} ({@code job_info}, {@code job_pod}); a newer snapshot also
 * attributes the lines held for its pods (stored before the job named them).
 */
@ApplicationScoped
public class JobRepository {

    private static final String UPSERT = "INSERT INTO job_info AS j (job_id, tenant, name, namespace, status, submitted_at,"
            + " started_at, finished_at, nodes, deleted, version) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"
            + " ON CONFLICT (job_id) DO UPDATE SET tenant = EXCLUDED.tenant, name = EXCLUDED.name,"
            + " namespace = EXCLUDED.namespace, status = EXCLUDED.status, submitted_at = EXCLUDED.submitted_at,"
            + " started_at = EXCLUDED.started_at, finished_at = EXCLUDED.finished_at, nodes = EXCLUDED.nodes,"
            + " deleted = EXCLUDED.deleted, version = EXCLUDED.version WHERE j.version < EXCLUDED.version RETURNING job_id";
    private static final String DROP_PODS = "DELETE FROM job_pod WHERE job_id = $1";
    private static final String ADD_PODS = "INSERT INTO job_pod (pod, namespace, job_id) SELECT p, $2, $1 FROM unnest($3::text[]) AS p"
            + " ON CONFLICT (pod, namespace) DO UPDATE SET job_id = EXCLUDED.job_id";
    private static final String ATTRIBUTE = "UPDATE chunk SET job_id = $1 WHERE job_id IS NULL AND kind = 'u'"
            + " AND pod = ANY($2::text[]) AND ($3 = '' OR namespace = $3)";
    private static final String TOMBSTONE = "UPDATE job_info SET deleted = TRUE WHERE job_id = $1";
    private static final String FIND = "SELECT job_id, tenant, name, submitted_at, started_at, finished_at, nodes, expired_at"
            + " FROM job_info WHERE job_id = $1";
    private static final String PODS = "SELECT pod, namespace, job_id FROM job_pod WHERE pod = ANY($1::text[])";

    private final Pool pool;

    public JobRepository(Pool pool) {
        this.pool = pool;
    }

    /** What contracts' {@code JobChangesConsumer} stores beside the access row: the snapshot, or the job gone. */
    @Produces
    @ApplicationScoped
    JobChanges.Facts jobChangesFacts() {
        return JobChanges.Facts.of(this::apply, this::tombstone);
    }

    /** Stores the snapshot unless an as new one is stored; a newer one attributes the held lines of its pods. */
    public Uni<Void> apply(SqlConnection conn, JobSnapshot s) {
        String ns = s.namespace() == null ? "" : s.namespace();
        String[] pods = s.pods() == null ? new String[0] : s.pods().toArray(String[]::new);
        String[] nodes = s.nodes() == null ? new String[0] : s.nodes().toArray(String[]::new);
        Tuple args = Tuple.tuple().addValue(s.jobId()).addValue(s.tenant()).addValue(s.name()).addValue(s.namespace())
                .addValue(s.status() == null ? null : s.status().name()).addValue(ts(s.submittedAt()))
                .addValue(ts(s.startedAt())).addValue(ts(s.finishedAt())).addValue(nodes).addValue(s.deleted())
                .addValue(s.version());
        return conn.preparedQuery(UPSERT).execute(args).chain(rows -> {
            if (rows.size() == 0) {
                return Uni.createFrom().voidItem();
            }
            return conn.preparedQuery(DROP_PODS).execute(Tuple.of(s.jobId()))
                    .chain(() -> conn.preparedQuery(ADD_PODS).execute(Tuple.of(s.jobId(), ns, pods)))
                    .chain(() -> conn.preparedQuery(ATTRIBUTE).execute(Tuple.of(s.jobId(), pods, ns)))
                    .replaceWithVoid();
        });
    }

    /** A tombstone on the compacted topic: the job is gone, its logs go with the next expiry run. */
    public Uni<Void> tombstone(SqlConnection conn, String jobId) {
        return conn.preparedQuery(TOMBSTONE).execute(Tuple.of(jobId)).replaceWithVoid();
    }

    public Uni<Optional<JobInfo>> find(String jobId) {
        return pool.preparedQuery(FIND).execute(Tuple.of(jobId)).map(rows -> {
            if (rows.size() == 0) {
                return Optional.empty();
            }
            Row r = rows.iterator().next();
            String[] nodes = r.getArrayOfStrings("nodes");
            return Optional.of(new JobInfo(r.getString("job_id"), r.getString("tenant"), r.getString("name"),
                    instant(r.getOffsetDateTime("submitted_at")), instant(r.getOffsetDateTime("started_at")),
                    instant(r.getOffsetDateTime("finished_at")), nodes == null ? List.of() : List.of(nodes),
                    instant(r.getOffsetDateTime("expired_at"))));
        });
    }

    /**
     * The jobs of these pods, keyed {@code namespace/pod}; a pod stored without namespace answers for any.
     */
    public Uni<Map<String, String>> jobsOfPods(List<String[]> nsPods) {
        String[] names = nsPods.stream().map(p -> p[1]).distinct().toArray(String[]::new);
        return pool.preparedQuery(PODS).execute(Tuple.of((Object) names)).map(rows -> {
            Map<String, String> byExact = new HashMap<>();
            Map<String, String> byName = new HashMap<>();
            for (Row r : rows) {
                String ns = r.getString("namespace");
                if (ns.isEmpty()) {
                    byName.put(r.getString("pod"), r.getString("job_id"));
                } else {
                    byExact.put(ns + "/" + r.getString("pod"), r.getString("job_id"));
                }
            }
            Map<String, String> out = new HashMap<>();
            for (String[] p : nsPods) {
                String key = p[0] + "/" + p[1];
                String job = byExact.getOrDefault(key, byName.get(p[1]));
                if (job != null) {
                    out.put(key, job);
                }
            }
            return out;
        });
    }
}
