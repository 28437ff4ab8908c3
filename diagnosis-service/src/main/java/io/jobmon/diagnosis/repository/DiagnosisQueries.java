package io.jobmon.diagnosis.repository;

import com.fasterxml.jackson.databind.JsonNode;
import io.jobmon.diagnosis.task.DiagnosisTask;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Reads of the {@code diagnosis} table: one by id, a job's history. */
@ApplicationScoped
public class DiagnosisQueries {

    private static final String SELECT = "SELECT " + Rows.DIAGNOSIS_COLUMNS + " FROM diagnosis ";

    public Uni<Optional<DiagnosisTask>> find(SqlClient db, String id) {
        return db.preparedQuery(SELECT + "WHERE id = $1").execute(Tuple.of(id)).map(DiagnosisRepository::first);
    }

    /** The metric snapshot kept with a diagnosis; empty when none was (not DONE, or made before snapshots were kept). */
    public Uni<Optional<JsonNode>> metricSnapshot(SqlClient db, String id) {
        return db.preparedQuery("SELECT metric_snapshot::text AS s FROM diagnosis WHERE id = $1").execute(Tuple.of(id))
                .map(rows -> rows.size() == 0 ? Optional.<JsonNode>empty()
                        : Optional.ofNullable(Rows.json(rows.iterator().next().getString("s"))));
    }

    /**
     * A page of the job's diagnoses, newest first, strictly after the position ({@code afterCreated},
     * {@code afterId}) when given; one more row than asked tells the caller whether another page exists.
     */
    public Uni<List<DiagnosisTask>> page(SqlClient db, String jobId, Instant afterCreated, String afterId, int limit) {
        String sql = SELECT + "WHERE job_id = $1 AND ($2::timestamptz IS NULL OR (created_at, id) < ($2, $3)) "
                + "ORDER BY created_at DESC, id DESC LIMIT $4";
        return db.preparedQuery(sql).execute(Tuple.of(jobId, Rows.utc(afterCreated), afterId == null ? "" : afterId,
                limit)).map(rows -> {
                    List<DiagnosisTask> out = new ArrayList<>();
                    rows.forEach(r -> out.add(Rows.task(r)));
                    return out;
                });
    }

    /**
     * The periodic diagnosis of the job finished just before {@code current}, unless an automatic action was decided
     * since: a diagnosis that took part in a decision never takes part in another.
     */
    public Uni<Optional<DiagnosisTask>> previousPeriodic(SqlClient db, DiagnosisTask current) {
        String sql = SELECT + "WHERE job_id = $1 AND trigger = 'PERIODIC' AND status = 'DONE' AND id <> $2 "
                + "AND (created_at, id) < ($3, $2) "
                + "AND created_at > coalesce((SELECT max(d.created_at) FROM fault_action f JOIN diagnosis d "
                + "ON d.id = f.second_diagnosis_id WHERE f.job_id = $1), '-infinity') "
                + "ORDER BY created_at DESC, id DESC LIMIT 1";
        return db.preparedQuery(sql).execute(Tuple.of(current.jobId(), current.id(), Rows.utc(current.createdAt())))
                .map(DiagnosisRepository::first);
    }

}
