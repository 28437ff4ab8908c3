package io.jobmon.jobs.job.repository;

import io.jobmon.contracts.events.JobStatus;
import io.jobmon.jobs.job.model.TransitionRecord;
import io.jobmon.jobs.support.Times;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/** Reads and writes {@code jobs.job_transition}: the timeline. */
@ApplicationScoped
public class TransitionRepository {

    public Uni<Void> insert(SqlClient db, TransitionRecord t) {
        return db.preparedQuery("INSERT INTO job_transition (job_id, status, reason, message, exit_code, at, source, "
                + "sequence, message_text) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::text::jsonb)")
                .execute(Tuple.from(new Object[] {t.jobId(), t.status().name(), t.reason(), t.message(), t.exitCode(),
                        Times.db(t.at()), t.source(), t.sequence(), JobRows.json(t.messageText())}))
                .replaceWithVoid();
    }

    /** A stored transition with its id: the order job-service applied it in. */
    public record Stored(long id, TransitionRecord transition) {
    }

    /**
     * The job's transitions in the order they were applied (ADR 0017: not by their times, which come from two
     * clocks), after {@code afterId} when given, at most {@code limit}.
     */
    public Uni<List<Stored>> timeline(SqlClient db, String jobId, Long afterId, int limit) {
        return db.preparedQuery("SELECT id, job_id, status, reason, message, message_text::text AS message_text, "
                + "exit_code, at, source, sequence FROM job_transition WHERE job_id = $1 "
                + "AND ($2::bigint IS NULL OR id > $2) ORDER BY id LIMIT $3")
                .execute(Tuple.of(jobId, afterId, limit))
                .map(rows -> JobRepository.list(rows, r -> new Stored(r.getLong("id"), new TransitionRecord(
                        r.getString("job_id"), JobStatus.valueOf(r.getString("status")), r.getString("reason"),
                        r.getString("message"), JobRows.text(r.getString("message_text")), r.getInteger("exit_code"),
                        Times.instant(r.getOffsetDateTime("at")), r.getString("source"), r.getLong("sequence")))));
    }
}
