package io.jobmon.metrics.query;

import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.metrics.jobs.JobInfo;
import io.jobmon.metrics.jobs.JobRepository;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * Writes the summary of every job that ended (a little after, so that its last samples are in), once: jobs are
 * claimed with {@code FOR UPDATE SKIP LOCKED}, so replicas share the work. The summary is kept as long as the job.
 */
@ApplicationScoped
public class SummaryJob {

    private static final Logger LOG = Logger.getLogger(SummaryJob.class);
    private static final String DUE = "SELECT job_id FROM job_info WHERE summary_due <= $1 AND NOT deleted"
            + " ORDER BY summary_due LIMIT 20 FOR UPDATE SKIP LOCKED";

    private final Pool pool;
    private final JobRepository jobs;
    private final SummaryService summaries;

    public SummaryJob(Pool pool, JobRepository jobs, SummaryService summaries) {
        this.pool = pool;
        this.jobs = jobs;
        this.summaries = summaries;
    }

    @Scheduled(every = "${jobmon.metrics.jobs.summaries-every}", delayed = "20s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> scheduled() {
        return writeDue(Instant.now()).onFailure().invoke(e -> LOG.warnf("job summaries failed: %s", e.getMessage()))
                .onFailure().recoverWithNull().replaceWithVoid();
    }

    /** Writes the summaries due at {@code now}; returns how many. */
    public Uni<Integer> writeDue(Instant now) {
        return pool.withTransaction(c -> c.preparedQuery(DUE).execute(Tuple.of(now.atOffset(java.time.ZoneOffset.UTC)))
                .chain(rows -> {
                    List<String> ids = new ArrayList<>();
                    for (Row r : rows) {
                        ids.add(r.getString("job_id"));
                    }
                    return Multi.createFrom().iterable(ids).onItem().transformToUniAndConcatenate(id -> jobs.find(id)
                            .chain(job -> job.isEmpty() ? Uni.createFrom().voidItem() : write(c, job.get(), now)))
                            .collect().last().replaceWith(ids.size());
                }));
    }

    private Uni<Void> write(io.vertx.mutiny.sqlclient.SqlClient c, JobInfo job, Instant now) {
        return summaries.compute(job, now, true).chain(s -> c.preparedQuery("INSERT INTO job_summary (job_id, computed_at, body)"
                + " VALUES ($1, $2, $3::text::jsonb) ON CONFLICT (job_id) DO UPDATE SET computed_at = EXCLUDED.computed_at,"
                + " body = EXCLUDED.body").execute(Tuple.of(job.jobId(), now.atOffset(java.time.ZoneOffset.UTC),
                        CloudEvents.toJson(s)))
                .chain(() -> c.preparedQuery("UPDATE job_info SET summary_due = NULL WHERE job_id = $1")
                        .execute(Tuple.of(job.jobId())))
                .replaceWithVoid());
    }

    /** The stored summary of a job. */
    public Uni<Optional<Summary>> stored(String jobId) {
        return pool.preparedQuery("SELECT body::text AS body FROM job_summary WHERE job_id = $1").execute(Tuple.of(jobId))
                .map(rows -> {
                    if (rows.size() == 0) {
                        return Optional.empty();
                    }
                    try {
                        return Optional.of(CloudEvents.MAPPER.readValue(rows.iterator().next().getString("body"),
                                Summary.class));
                    } catch (Exception e) {
                        LOG.warnf("stored summary of %s unreadable, computing it again: %s", jobId, e.getMessage());
                        return Optional.empty();
                    }
                });
    }
}
