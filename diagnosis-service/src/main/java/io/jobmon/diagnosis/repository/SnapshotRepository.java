package io.jobmon.diagnosis.repository;

import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.JobSnapshot;
import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.readmodel.JobChanges;
import io.jobmon.diagnosis.config.DiagnosisConfig;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code job_snapshot}: the latest {@code jobmon.job.changes} snapshot of each job, and the schedule of periodic
 * diagnoses of running jobs that opted in to automatic fault handling.
 */
@ApplicationScoped
public class SnapshotRepository {

    private final Duration warmUp;

    public SnapshotRepository(DiagnosisConfig config) {
        this.warmUp = config.autoFault().warmUp();
    }

    /** What contracts' {@code JobChangesConsumer} stores beside the access row: the snapshot, or the job gone. */
    @Produces
    @ApplicationScoped
    JobChanges.Facts jobChangesFacts() {
        return JobChanges.Facts.of(this::apply, this::tombstone);
    }

    /**
     * Stores the snapshot unless a newer one is stored; (un)schedules the job's periodic diagnoses: the first one
     * once the job has run for the warm-up ({@link #firstCheck}).
     */
    public Uni<Void> apply(SqlClient db, JobSnapshot s) {
        boolean watched = s.autoFaultHandling() && s.status() == JobStatus.RUNNING && !s.deleted();
        String sql = "INSERT INTO job_snapshot AS j (job_id, version, status, auto_fault_handling, deleted, snapshot, "
                + "next_check_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6::text::jsonb, CASE WHEN $7 THEN $8::timestamptz END, now()) "
                + "ON CONFLICT (job_id) DO UPDATE SET version = EXCLUDED.version, status = EXCLUDED.status, "
                + "auto_fault_handling = EXCLUDED.auto_fault_handling, deleted = EXCLUDED.deleted, "
                + "snapshot = EXCLUDED.snapshot, updated_at = now(), "
                + "next_check_at = CASE WHEN $7 THEN coalesce(j.next_check_at, $8::timestamptz) END "
                + "WHERE j.version < EXCLUDED.version";
        java.time.OffsetDateTime first = firstCheck(s.startedAt(), java.time.Instant.now(), warmUp)
                .atOffset(java.time.ZoneOffset.UTC);
        return db.preparedQuery(sql).execute(Tuple.tuple().addValue(s.jobId()).addValue(s.version())
                .addValue(s.status() == null ? null : s.status().name()).addValue(s.autoFaultHandling())
                .addValue(s.deleted()).addValue(CloudEvents.toJson(s)).addValue(watched).addValue(first))
                .replaceWithVoid();
    }

    /** When a running job's first periodic diagnosis is due: once it has run {@code warmUp} (from now if unknown). */
    public static java.time.Instant firstCheck(java.time.Instant startedAt, java.time.Instant now, Duration warmUp) {
        java.time.Instant first = (startedAt == null || startedAt.isAfter(now) ? now : startedAt).plus(warmUp);
        return first.isBefore(now) ? now : first;
    }

    /** A tombstone: the job is gone, stop watching it. */
    public Uni<Void> tombstone(SqlClient db, String jobId) {
        return db.preparedQuery("UPDATE job_snapshot SET deleted = TRUE, next_check_at = NULL WHERE job_id = $1")
                .execute(Tuple.of(jobId)).replaceWithVoid();
    }

    public Uni<Optional<JobSnapshot>> find(SqlClient db, String jobId) {
        return db.preparedQuery("SELECT snapshot::text AS s FROM job_snapshot WHERE job_id = $1 AND NOT deleted")
                .execute(Tuple.of(jobId))
                .map(rows -> rows.size() == 0 ? Optional.empty()
                        : Optional.of(read(rows.iterator().next().getString("s"))));
    }

    /**
     * Claims the watched jobs whose periodic diagnosis is due and moves their next check one interval on, in one
     * statement: rows locked by another instance are skipped, so each due check is taken by exactly one instance.
     */
    public Uni<List<String>> claimDue(SqlClient db, Duration interval, int limit) {
        String sql = "UPDATE job_snapshot j SET next_check_at = now() + make_interval(secs => $1) "
                + "FROM (SELECT job_id FROM job_snapshot WHERE next_check_at <= now() ORDER BY next_check_at "
                + "LIMIT $2 FOR UPDATE SKIP LOCKED) due WHERE j.job_id = due.job_id RETURNING j.job_id";
        return db.preparedQuery(sql).execute(Tuple.of((double) interval.toMillis() / 1000.0, limit)).map(rows -> {
            List<String> ids = new ArrayList<>();
            for (Row r : rows) {
                ids.add(r.getString("job_id"));
            }
            return ids;
        });
    }

    private static JobSnapshot read(String json) {
        try {
            return CloudEvents.MAPPER.readValue(json, JobSnapshot.class);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("unreadable stored snapshot", e);
        }
    }
}
