package io.jobmon.jobs.outbox;

import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.JobSnapshot;
import io.jobmon.contracts.events.Topics;
import io.jobmon.contracts.outbox.Outbox;
import io.jobmon.jobs.job.model.JobRecord;
import io.jobmon.jobs.job.repository.JobRepository;
import io.jobmon.jobs.job.repository.PodRepository;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Writes a job's snapshot for {@code jobmon.job.changes} into the suite's outbox in the caller's transaction: it
 * commits with the change it describes, or not at all, and replaces the job's snapshot not yet sent (the topic is
 * compacted: only the latest matters). Call it last in the transaction, after every write to the job.
 */
@ApplicationScoped
public class OutboxWriter {

    static final String SOURCE = "/jobmon/job-service";

    private final JobRepository jobs;
    private final PodRepository pods;
    private final Outbox outbox;

    public OutboxWriter(JobRepository jobs, PodRepository pods, Outbox outbox) {
        this.jobs = jobs;
        this.pods = pods;
        this.outbox = outbox;
    }

    /** Records the job's current state (read back in this transaction). */
    public Uni<Void> changed(SqlClient tx, String jobId) {
        return jobs.find(tx, jobId).chain(found -> found.map(job -> write(tx, job, false))
                .orElse(Uni.createFrom().voidItem()));
    }

    /** Records that the job is being deleted: call before deleting its row (its pods are read first). */
    public Uni<Void> deleted(SqlClient tx, JobRecord job) {
        return write(tx, job.withVersion(job.version() + 1), true);
    }

    private Uni<Void> write(SqlClient tx, JobRecord job, boolean deleted) {
        return pods.namesAndNodes(tx, job.id()).chain(p -> {
            JobSnapshot snapshot = SnapshotFactory.of(job, p, deleted);
            return outbox.replace(tx, Topics.JOB_CHANGES, job.id(),
                    CloudEvents.encode(SOURCE, JobSnapshot.TYPE, job.id(), snapshot));
        });
    }
}
