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

    /** The job's transitions in time order. */
    public Uni<List<TransitionRecord>> timeline(SqlClient db, String jobId) {
        return db.preparedQuery("SELECT job_id, status, reason, message, message_text::text AS message_text, "
                + "exit_code, at, source, sequence FROM job_transition WHERE job_id = $1 ORDER BY at, id")
                .execute(Tuple.of(jobId))
                .map(rows -> JobRepository.list(rows, r -> new TransitionRecord(r.getString("job_id"),
                        JobStatus.valueOf(r.getString("status")), r.getString("reason"), r.getString("message"),
                        JobRows.text(r.getString("message_text")), r.getInteger("exit_code"), Times.instant(r.getOffsetDateTime("at")), r.getString("source"),
                        r.getLong("sequence"))));
    }
}
