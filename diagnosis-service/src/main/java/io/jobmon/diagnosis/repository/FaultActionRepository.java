package io.jobmon.diagnosis.repository;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code fault_action}: each decision of automatic fault handling, with both diagnosis ids. The unique keys on the
 * two ids make a decision for the same pair impossible to record (and so to publish) twice.
 */
@ApplicationScoped
public class FaultActionRepository {

    /**
     * A decision: COMMANDED (a JobCommand is to be published), REFUSED or SKIPPED, and why.
     *
     * @param firstDiagnosisId the earlier of two agreeing periodic diagnoses; null for a decision on one JOB_FAILED
     *        diagnosis ({@code secondDiagnosisId})
     */
    public record FaultAction(String id, String jobId, String firstDiagnosisId, String secondDiagnosisId,
            String command, String outcome, String reason, Instant createdAt) {
    }

    /** Records the decision; false when either diagnosis already took part in one. */
    public Uni<Boolean> insert(SqlClient db, FaultAction a) {
        String sql = "INSERT INTO fault_action (id, job_id, first_diagnosis_id, second_diagnosis_id, command, outcome, "
                + "reason) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING";
        return db.preparedQuery(sql).execute(Tuple.tuple().addValue(a.id()).addValue(a.jobId())
                .addValue(a.firstDiagnosisId()).addValue(a.secondDiagnosisId()).addValue(a.command())
                .addValue(a.outcome()).addValue(a.reason())).map(rows -> rows.rowCount() == 1);
    }

    /** When the job's last decision was made, if any (for the cool-down). */
    public Uni<Instant> lastDecision(SqlClient db, String jobId) {
        return db.preparedQuery("SELECT max(created_at) AS t FROM fault_action WHERE job_id = $1 AND outcome = 'COMMANDED'")
                .execute(Tuple.of(jobId)).map(rows -> Rows.instant(rows.iterator().next(), "t"));
    }

    public Uni<List<FaultAction>> forJob(SqlClient db, String jobId) {
        return db.preparedQuery("SELECT * FROM fault_action WHERE job_id = $1 ORDER BY created_at")
                .execute(Tuple.of(jobId)).map(rows -> {
                    List<FaultAction> out = new ArrayList<>();
                    rows.forEach(r -> out.add(row(r)));
                    return out;
                });
    }

    private static FaultAction row(Row r) {
        return new FaultAction(r.getString("id"), r.getString("job_id"), r.getString("first_diagnosis_id"),
                r.getString("second_diagnosis_id"), r.getString("command"), r.getString("outcome"),
                r.getString("reason"), Rows.instant(r, "created_at"));
    }
}

