package io.jobmon.jobs.job.repository;

import io.jobmon.contracts.i18n.Text;
import io.jobmon.jobs.support.Times;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;

/** {@code jobs.job_command} and {@code jobs.diagnosis_applied}: what was received once, and what came of it. */
@ApplicationScoped
public class CommandRepository {

    /**
     * A command as recorded, with its outcome ({@code EXECUTED} or {@code REFUSED}) and why; {@code categories}: what
     * its diagnoses found, in their order, as job-service received them (empty for diagnoses it never received).
     */
    public record CommandRecord(String commandId, String jobId, String kind, List<String> diagnosisIds, String reason,
            List<String> categories, String outcome, String detail, Text detailText, String newJobId,
            Instant receivedAt) {
    }

    /** Records the command; false when its id was seen before (it must not run again). */
    public Uni<Boolean> claim(SqlClient db, String commandId, String jobId, String kind, List<String> diagnosisIds,
            String reason) {
        return db.preparedQuery("INSERT INTO job_command (command_id, job_id, kind, diagnosis_ids, reason, outcome, "
                + "received_at) VALUES ($1, $2, $3, $4, $5, 'RECEIVED', now()) ON CONFLICT (command_id) DO NOTHING")
                .execute(Tuple.of(commandId, jobId, kind, diagnosisIds.toArray(String[]::new), reason))
                .map(rows -> rows.rowCount() == 1);
    }

    /** What came of a command: {@code detail} in English, {@code detailText} its catalogue key. */
    public Uni<Void> outcome(SqlClient db, String commandId, String outcome, String detail, Text detailText,
            String newJobId) {
        return db.preparedQuery("UPDATE job_command SET outcome = $2, detail = $3, new_job_id = $4, "
                + "detail_text = $5::text::jsonb WHERE command_id = $1")
                .execute(Tuple.of(commandId, outcome, detail, newJobId, JobRows.json(detailText))).replaceWithVoid();
    }

    /** Commands received for any of the jobs, oldest first. */
    public Uni<List<CommandRecord>> forJobs(SqlClient db, List<String> jobIds) {
        return db.preparedQuery("SELECT command_id, job_id, kind, diagnosis_ids, reason, outcome, detail, "
                + "detail_text::text AS detail_text, new_job_id, received_at, ARRAY(SELECT a.category FROM "
                + "diagnosis_applied a WHERE a.diagnosis_id = ANY(c.diagnosis_ids) AND a.category IS NOT NULL "
                + "ORDER BY array_position(c.diagnosis_ids, a.diagnosis_id)) AS categories "
                + "FROM job_command c WHERE job_id = ANY($1) ORDER BY received_at, command_id")
                .execute(Tuple.of(jobIds.toArray(String[]::new)))
                .map(rows -> JobRepository.list(rows, r -> new CommandRecord(r.getString("command_id"),
                        r.getString("job_id"), r.getString("kind"), JobRows.strings(r.getArrayOfStrings("diagnosis_ids")),
                        r.getString("reason"), JobRows.strings(r.getArrayOfStrings("categories")),
                        r.getString("outcome"), r.getString("detail"),
                        JobRows.text(r.getString("detail_text")), r.getString("new_job_id"),
                        Times.instant(r.getOffsetDateTime("received_at")))));
    }

    /** A diagnosis job-service received: its job, root cause, proposed action and what triggered it. */
    public record KnownDiagnosis(String diagnosisId, String jobId, String category, String action, String trigger) {
    }

    /** Records that a diagnosis was applied, with what it found; false when it was already. */
    public Uni<Boolean> claimDiagnosis(SqlClient db, KnownDiagnosis d) {
        return db.preparedQuery("INSERT INTO diagnosis_applied (diagnosis_id, job_id, category, action, trigger) "
                + "VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING")
                .execute(Tuple.of(d.diagnosisId(), d.jobId(), d.category(), d.action(), d.trigger()))
                .map(rows -> rows.rowCount() == 1);
    }

    /** The diagnoses among {@code ids} that job-service received (for any job: the caller checks the job). */
    public Uni<List<KnownDiagnosis>> diagnoses(SqlClient db, List<String> ids) {
        return db.preparedQuery("SELECT diagnosis_id, job_id, category, action, trigger FROM diagnosis_applied "
                + "WHERE diagnosis_id = ANY($1)").execute(Tuple.of(ids.toArray(String[]::new)))
                .map(rows -> JobRepository.list(rows, r -> new KnownDiagnosis(r.getString("diagnosis_id"),
                        r.getString("job_id"), r.getString("category"), r.getString("action"), r.getString("trigger"))));
    }
}
