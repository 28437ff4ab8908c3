package io.jobmon.metrics.jobs;

import io.jobmon.contracts.events.JobSnapshot;
import io.jobmon.contracts.readmodel.JobChanges;
import io.jobmon.metrics.config.MetricsConfig;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;

/**
 * Keeps from {@code jobmon.job.changes} (contracts' {@link io.jobmon.contracts.readmodel.JobChangesConsumer}): the
 * job-access read model (contracts), the job's facts (owner, queue,
 * cluster, status, times), where its pods ran and when ({@link Placements}), and asks for its summary when it
 * ends, all in the access row's transaction (contracts' {@link JobChanges}: an invalid record to the DLQ, any other
 * failure retried). Idempotent: an older or repeated snapshot changes nothing.
 */
@ApplicationScoped
public class JobFacts implements JobChanges.Facts {

    private final JobRepository jobs;
    private final MetricsConfig config;

    public JobFacts(JobRepository jobs, MetricsConfig config) {
        this.jobs = jobs;
        this.config = config;
    }

    @Override
    public Uni<Void> apply(SqlConnection c, JobSnapshot s, Instant at) {
        return jobs.upsert(c, s).chain(applied -> {
            if (!applied) {
                return Uni.createFrom().voidItem();
            }
            Uni<Void> placed = jobs.intervals(c, s.jobId())
                    .chain(current -> jobs.replaceIntervals(c, s.jobId(),
                            Placements.next(current, s, at.toEpochMilli())));
            if (s.deleted()) {
                return placed.chain(() -> jobs.tombstone(c, s.jobId()));
            }
            if (Placements.ended(s) && s.startedAt() != null) {
                return placed.chain(() -> jobs.summaryDue(c, s.jobId(), s.finishedAt(), config.jobs().summaryDelay()));
            }
            return placed;
        });
    }

    @Override
    public Uni<Void> tombstone(SqlConnection c, String jobId) {
        return jobs.tombstone(c, jobId);
    }
}
