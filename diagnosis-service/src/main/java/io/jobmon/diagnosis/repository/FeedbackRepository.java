package io.jobmon.diagnosis.repository;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.Optional;

/** {@code diagnosis_feedback}: one verdict per user and diagnosis (a second one replaces the first). */
@ApplicationScoped
public class FeedbackRepository {

    /** A stored verdict. */
    public record Feedback(String diagnosisId, String author, String verdict, String comment, String category,
            Instant createdAt) {
    }

    public Uni<Feedback> upsert(SqlClient db, String diagnosisId, String author, String verdict, String comment,
            String category) {
        String sql = "INSERT INTO diagnosis_feedback (diagnosis_id, author, verdict, comment, category) "
                + "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (diagnosis_id, author) DO UPDATE SET verdict = EXCLUDED.verdict, "
                + "comment = EXCLUDED.comment, category = EXCLUDED.category, created_at = now() RETURNING created_at";
        return db.preparedQuery(sql).execute(Tuple.of(diagnosisId, author, verdict, comment, category))
                .map(rows -> new Feedback(diagnosisId, author, verdict, comment, category,
                        Rows.instant(rows.iterator().next(), "created_at")));
    }

    /** The verdict {@code author} gave on the diagnosis, if any. */
    public Uni<Optional<Feedback>> find(SqlClient db, String diagnosisId, String author) {
        return db.preparedQuery("SELECT verdict, comment, category, created_at FROM diagnosis_feedback "
                + "WHERE diagnosis_id = $1 AND author = $2").execute(Tuple.of(diagnosisId, author))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(rows.iterator().next()).map(r ->
                        new Feedback(diagnosisId, author, r.getString("verdict"), r.getString("comment"),
                                r.getString("category"), Rows.instant(r, "created_at"))));
    }
}
