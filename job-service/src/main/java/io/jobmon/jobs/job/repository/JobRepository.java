package io.jobmon.jobs.job.repository;

import io.jobmon.jobs.job.model.JobRecord;
import io.jobmon.jobs.support.Json;
import io.jobmon.jobs.support.Times;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/** Reads and writes {@code jobs.job}. Callers pass the connection so that writes join their transaction. */
@ApplicationScoped
public class JobRepository {

    private static final String INSERT = "INSERT INTO job (id, tenant, owner, project, name, cluster, region, "
            + "namespace, queue, priority, status, reason, message, gpu_type, gpus_per_replica, replicas, visibility, "
            + "tags, shares, spec, supports_restart, auto_fault_handling, max_retries, root_id, attempt, attempt_cause, "
            + "diagnosis_id, previous_id, cloned_from, retry_count, idempotency_key, submitted_at, message_text) VALUES "
            + "($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, "
            + "$23, $24, $25, $26, $27, $28, $29, $30, $31, $32, $33::text::jsonb)";

    public Uni<Void> insert(SqlClient db, JobRecord j) {
        Tuple t = Tuple.from(new Object[] {j.id(), j.tenant(), j.owner(), j.project(), j.name(), j.cluster(),
                j.region(), j.namespace(), j.queue(), j.priority().name(), j.status().name(), j.reason(), j.message(),
                j.gpuType(), j.gpusPerReplica(), j.replicas(), j.visibility().name(), j.tags().toArray(String[]::new),
                j.shares().toArray(String[]::new), new JsonObject(Json.write(j.spec())), j.supportsRestart(),
                j.autoFaultHandling(), j.maxRetries(), j.rootId(), j.attempt(), j.attemptCause().name(),
                j.diagnosisId(), j.previousId(), j.clonedFrom(), j.retryCount(), j.idempotencyKey(),
                Times.db(j.submittedAt()), JobRows.json(j.messageText())});
        return db.preparedQuery(INSERT).execute(t).replaceWithVoid();
    }

    public Uni<Optional<JobRecord>> find(SqlClient db, String id) {
        return one(db, "SELECT " + JobRows.ALL_COLUMNS + " FROM job j WHERE j.id = $1", Tuple.of(id));
    }

    /** The job, locked until the transaction ends: status events, actions and commands on one job serialise here. */
    public Uni<Optional<JobRecord>> lock(SqlClient db, String id) {
        return one(db, "SELECT " + JobRows.ALL_COLUMNS + " FROM job j WHERE j.id = $1 FOR UPDATE", Tuple.of(id));
    }

    /** A job just written by this service (it exists: a missing one is a bug, not a 404). */
    public Uni<JobRecord> get(SqlClient db, String id) {
        return find(db, id).map(Optional::orElseThrow);
    }

    public Uni<Optional<JobRecord>> findByIdempotencyKey(SqlClient db, String tenant, String owner, String key) {
        return one(db, "SELECT " + JobRows.ALL_COLUMNS + " FROM job j WHERE j.tenant = $1 AND j.owner = $2 "
                + "AND j.idempotency_key = $3", Tuple.of(tenant, owner, key));
    }

    /** Every attempt of a chain, first to last. */
    public Uni<List<JobRecord>> chain(SqlClient db, String rootId) {
        return db.preparedQuery("SELECT " + JobRows.LIST_COLUMNS + " FROM job j WHERE j.root_id = $1 ORDER BY j.attempt")
                .execute(Tuple.of(rootId)).map(rows -> list(rows, JobRows::map));
    }

    public Uni<Integer> lastAttempt(SqlClient db, String rootId) {
        return db.preparedQuery("SELECT max(attempt) AS a FROM job WHERE root_id = $1").execute(Tuple.of(rootId))
                .map(rows -> {
                    Integer a = rows.iterator().next().getInteger("a");
                    return a == null ? 0 : a;
                });
    }

    /** Writes a new status with its reason and times; bumps the version. */
    public Uni<Void> updateStatus(SqlClient db, StatusUpdate u) {
        return db.preparedQuery("UPDATE job SET status = $2, reason = $3, message = $4, exit_code = $5, "
                + "failure_reason = $6, first_event_at = $7, started_at = $8, finished_at = $9, last_sequence = $10, "
                + "message_text = $11::text::jsonb, version = version + 1, updated_at = now() WHERE id = $1")
                .execute(Tuple.from(new Object[] {u.id(), u.status().name(), u.reason(), u.message(), u.exitCode(),
                        u.failureReason(), Times.db(u.firstEventAt()), Times.db(u.startedAt()),
                        Times.db(u.finishedAt()), u.lastSequence(), JobRows.json(u.messageText())}))
                .replaceWithVoid();
    }

    /**
     * Something of the job's pods changed (not its status): bumps the version and {@code updated_at}; an ABNORMAL
     * job whose pods all ended gets {@code finished_at} (its run time stops growing), one with a live pod again
     * loses it.
     */
    public Uni<Void> podsChanged(SqlClient db, String id, Instant at) {
        return db.preparedQuery("UPDATE job j SET version = version + 1, updated_at = now(), "
                + "finished_at = CASE WHEN j.status <> 'ABNORMAL' THEN j.finished_at "
                + "WHEN p.ended THEN coalesce(j.finished_at, $2) ELSE NULL END "
                + "FROM (SELECT count(*) > 0 AND bool_and(phase IN ('Succeeded', 'Failed', 'Deleted')) AS ended "
                + "FROM job_pod WHERE job_id = $1) p WHERE j.id = $1")
                .execute(Tuple.of(id, Times.db(at))).replaceWithVoid();
    }

    public Uni<Void> setTags(SqlClient db, String id, List<String> tags) {
        return update(db, "tags = $2", Tuple.of(id, tags.toArray(String[]::new)));
    }

    public Uni<Void> setShares(SqlClient db, String id, List<String> users) {
        return update(db, "shares = $2", Tuple.of(id, users.toArray(String[]::new)));
    }

    public Uni<Void> setVisibility(SqlClient db, String id, String visibility) {
        return update(db, "visibility = $2", Tuple.of(id, visibility));
    }

    public Uni<Void> setFailureReason(SqlClient db, String id, String reason, String diagnosisId) {
        return update(db, "failure_reason = $2, failure_diagnosis_id = $3", Tuple.of(id, reason, diagnosisId));
    }

    public Uni<Void> delete(SqlClient db, String id) {
        return db.preparedQuery("DELETE FROM job WHERE id = $1").execute(Tuple.of(id)).replaceWithVoid();
    }

    /** Ids of jobs STOPPING since before {@code before}. */
    public Uni<List<String>> stoppingSince(SqlClient db, Instant before, int limit) {
        return db.preparedQuery("SELECT id FROM job WHERE status = 'STOPPING' AND updated_at < $1 LIMIT $2")
                .execute(Tuple.of(Times.db(before), limit)).map(rows -> list(rows, r -> r.getString("id")));
    }

    private Uni<Void> update(SqlClient db, String set, Tuple t) {
        return db.preparedQuery("UPDATE job SET " + set + ", version = version + 1, updated_at = now() WHERE id = $1")
                .execute(t).replaceWithVoid();
    }

    private static Uni<Optional<JobRecord>> one(SqlClient db, String sql, Tuple t) {
        return db.preparedQuery(sql).execute(t)
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(JobRows.map(rows.iterator().next())));
    }

    static <T> List<T> list(RowSet<Row> rows, Function<Row, T> mapper) {
        List<T> out = new java.util.ArrayList<>(rows.size());
        for (Row r : rows) {
            out.add(mapper.apply(r));
        }
        return out;
    }

    /** The status columns a transition changes. */
    public record StatusUpdate(String id, io.jobmon.contracts.events.JobStatus status, String reason, String message,
            Integer exitCode, String failureReason, Instant firstEventAt, Instant startedAt, Instant finishedAt,
            long lastSequence, io.jobmon.contracts.i18n.Text messageText) {
    }
}
