package io.jobmon.diagnosis.repository;

import com.fasterxml.jackson.databind.JsonNode;
import io.jobmon.diagnosis.task.DiagnosisTask;
import io.jobmon.diagnosis.task.NewTask;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The life of a {@code diagnosis} row: stored PENDING, claimed RUNNING by one instance (a claim expires, so a dead
 * instance's task is taken over), then DONE with its result or, after too many attempts, FAILED.
 */
@ApplicationScoped
public class DiagnosisRepository {

    private static final String RETURNING = " RETURNING " + Rows.DIAGNOSIS_COLUMNS;

    /** Stores the task; false when an automatic task with the same trigger key exists already. */
    public Uni<Boolean> insert(SqlClient db, NewTask t) {
        String sql = "INSERT INTO diagnosis (id, job_id, trigger, trigger_key, status, requested_by, window_from, "
                + "window_to, metrics, hint, locale, seed, not_before) VALUES ($1, $2, $3, $4, 'PENDING', $5, $6, $7, $8, "
                + "$9, $10, $11::text::jsonb, now() + make_interval(secs => $12)) ON CONFLICT (trigger_key) DO NOTHING";
        Tuple args = Tuple.tuple().addValue(t.id()).addValue(t.jobId()).addValue(t.trigger().name())
                .addValue(t.triggerKey()).addValue(t.requestedBy()).addValue(Rows.utc(t.windowFrom()))
                .addValue(Rows.utc(t.windowTo())).addValue(Rows.array(t.metrics())).addValue(t.hint())
                .addValue(t.locale()).addValue(Rows.text(t.seed())).addValue(t.handoff().toMillis() / 1000.0);
        return db.preparedQuery(sql).execute(args).map(rows -> rows.rowCount() == 1);
    }

    /**
     * Stores an automatic JOB_FAILED task unless the job got one in the last {@code episode}: one failure is one
     * diagnosis, though it is reported several times (ABNORMAL, then FAILED; a crash loop going ABNORMAL again and
     * again). False when nothing was stored.
     */
    public Uni<Boolean> insertFailure(SqlClient db, NewTask t, Duration episode) {
        String sql = "INSERT INTO diagnosis (id, job_id, trigger, trigger_key, status, requested_by, window_from, "
                + "window_to, metrics, hint, locale, seed, not_before) SELECT $1, $2, $3, $4, 'PENDING', $5, $6, $7, $8, "
                + "$9, $10, $11::text::jsonb, now() + make_interval(secs => $12) WHERE NOT EXISTS (SELECT 1 FROM "
                + "diagnosis p WHERE p.job_id = $2 AND p.trigger = 'JOB_FAILED' AND p.created_at > now() - "
                + "make_interval(secs => $13)) ON CONFLICT (trigger_key) DO NOTHING";
        Tuple args = Tuple.tuple().addValue(t.id()).addValue(t.jobId()).addValue(t.trigger().name())
                .addValue(t.triggerKey()).addValue(t.requestedBy()).addValue(Rows.utc(t.windowFrom()))
                .addValue(Rows.utc(t.windowTo())).addValue(Rows.array(t.metrics())).addValue(t.hint())
                .addValue(t.locale()).addValue(Rows.text(t.seed())).addValue(t.handoff().toMillis() / 1000.0)
                .addValue(episode.toMillis() / 1000.0);
        return db.preparedQuery(sql).execute(args).map(rows -> rows.rowCount() == 1);
    }

    /** Claims one task for this instance if it is PENDING or its previous claim expired. */
    public Uni<Optional<DiagnosisTask>> claim(SqlClient db, String id, String instance, Duration ttl) {
        String sql = "UPDATE diagnosis SET status = 'RUNNING', attempts = attempts + 1, claimed_by = $2, "
                + "claimed_until = now() + make_interval(secs => $3), started_at = coalesce(started_at, now()) "
                + "WHERE id = $1 AND (status = 'PENDING' OR (status = 'RUNNING' AND claimed_until < now()))" + RETURNING;
        return db.preparedQuery(sql).execute(Tuple.of(id, instance, (double) ttl.toSeconds()))
                .map(rows -> first(rows));
    }

    /**
     * Claims up to {@code limit} tasks that are due (PENDING past their hand-off time, or RUNNING with an expired
     * claim); rows another instance is claiming are skipped, never taken twice.
     */
    public Uni<List<DiagnosisTask>> claimDue(SqlClient db, String instance, Duration ttl, int limit) {
        String sql = "UPDATE diagnosis d SET status = 'RUNNING', attempts = d.attempts + 1, claimed_by = $1, "
                + "claimed_until = now() + make_interval(secs => $2), started_at = coalesce(d.started_at, now()) "
                + "FROM (SELECT id AS due_id FROM diagnosis WHERE (status = 'PENDING' AND not_before <= now()) "
                + "OR (status = 'RUNNING' AND claimed_until < now()) ORDER BY not_before LIMIT $3 "
                + "FOR UPDATE SKIP LOCKED) due WHERE d.id = due.due_id" + RETURNING;
        return db.preparedQuery(sql).execute(Tuple.of(instance, (double) ttl.toSeconds(), limit)).map(rows -> {
            List<DiagnosisTask> out = new ArrayList<>();
            rows.forEach(r -> out.add(Rows.task(r)));
            return out;
        });
    }

    /** Stores the result of a task this instance holds; false when the claim was lost meanwhile. */
    public Uni<Boolean> complete(SqlClient db, String id, String instance, Completion o) {
        String sql = "UPDATE diagnosis SET status = 'DONE', finished_at = now(), claimed_until = NULL, category = $3, "
                + "action = $4, confidence = $5, result = $6::text::jsonb, missing_sources = $7, source_errors = $8::text::jsonb, "
                + "evidence_read = $9::text::jsonb, foreign_evidence = $10, metric_snapshot = $11::text::jsonb, error = NULL "
                + "WHERE id = $1 AND claimed_by = $2 AND status = 'RUNNING'";
        Tuple args = Tuple.tuple().addValue(id).addValue(instance).addValue(o.category()).addValue(o.action())
                .addValue(o.confidence()).addValue(o.resultJson()).addValue(Rows.array(o.missingSources()))
                .addValue(Rows.text(o.sourceErrors())).addValue(Rows.text(o.evidenceRead()))
                .addValue(o.foreignEvidence()).addValue(Rows.text(o.metricSnapshot()));
        return db.preparedQuery(sql).execute(args).map(rows -> rows.rowCount() == 1);
    }

    /** A failed attempt: PENDING again after {@code retryAfter}, or FAILED once the attempts are used up. */
    public Uni<Void> fail(SqlClient db, String id, String instance, String error, int maxAttempts, Duration retryAfter) {
        String sql = "UPDATE diagnosis SET error = $3, claimed_until = NULL, "
                + "status = CASE WHEN attempts >= $4 THEN 'FAILED' ELSE 'PENDING' END, "
                + "finished_at = CASE WHEN attempts >= $4 THEN now() END, "
                + "not_before = now() + make_interval(secs => $5) WHERE id = $1 AND claimed_by = $2 AND status = 'RUNNING'";
        return db.preparedQuery(sql).execute(Tuple.of(id, instance, error, maxAttempts, (double) retryAfter.toSeconds()))
                .replaceWithVoid();
    }

    /** Gives up a task whose attempts are all used up (claimed once more after a crash). */
    public Uni<Void> giveUp(SqlClient db, String id, String error) {
        return db.preparedQuery("UPDATE diagnosis SET status = 'FAILED', finished_at = now(), claimed_until = NULL, "
                + "error = $2 WHERE id = $1").execute(Tuple.of(id, error)).replaceWithVoid();
    }

    static Optional<DiagnosisTask> first(RowSet<Row> rows) {
        return rows.size() == 0 ? Optional.empty() : Optional.of(Rows.task(rows.iterator().next()));
    }

    /**
     * A finished analysis as stored; {@code evidenceRead}: what was read of each source; {@code metricSnapshot}: the
     * metric series it read, thinned ({@code MetricSnapshot}).
     */
    public record Completion(String category, String action, double confidence, String resultJson,
            List<String> missingSources, Map<String, String> sourceErrors, Map<String, Object> evidenceRead,
            String foreignEvidence, JsonNode metricSnapshot) {
    }
}
