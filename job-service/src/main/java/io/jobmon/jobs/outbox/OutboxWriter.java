package io.jobmon.jobs.outbox;

import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.JobSnapshot;
import io.jobmon.jobs.job.model.JobRecord;
import io.jobmon.jobs.job.repository.JobRepository;
import io.jobmon.jobs.job.repository.PodRepository;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Writes a job's snapshot into the outbox in the caller's transaction: it commits with the change it describes, or
 * not at all. Call it last in the transaction, after every write to the job.
 */
@ApplicationScoped
public class OutboxWriter {

    static final String SOURCE = "/jobmon/job-service";

    private final JobRepository jobs;
    private final PodRepository pods;

    public OutboxWriter(JobRepository jobs, PodRepository pods) {
        this.jobs = jobs;
        this.pods = pods;
    }

    /** Records the job's current state (read back in this transaction). */
    public Uni<Void> changed(SqlClient tx, String jobId) {
        return jobs.find(tx, jobId).flatMap(job -> job == null ? Uni.createFrom().voidItem() : write(tx, job, false));
    }

    /** Records that the job is being deleted: call before deleting its row (its pods are read first). */
    public Uni<Void> deleted(SqlClient tx, JobRecord job) {
        JobRecord next = new JobRecord(job.id(), job.tenant(), job.owner(), job.project(), job.name(), job.cluster(),
                job.region(), job.namespace(), job.queue(), job.priority(), job.status(), job.reason(), job.message(),
                job.failureReason(), job.failureDiagnosisId(), job.exitCode(), job.gpuType(), job.gpusPerReplica(),
                job.replicas(), job.visibility(), job.tags(), job.shares(), job.spec(), job.supportsRestart(),
                job.autoFaultHandling(), job.maxRetries(), job.rootId(), job.attempt(), job.attemptCause(),
                job.diagnosisId(), job.previousId(), job.clonedFrom(), job.retryCount(), job.idempotencyKey(),
                job.submittedAt(), job.firstEventAt(), job.startedAt(), job.finishedAt(), job.lastSequence(),
                job.version() + 1);
        return write(tx, next, true);
    }

    private Uni<Void> write(SqlClient tx, JobRecord job, boolean deleted) {
        return pods.namesAndNodes(tx, job.id()).flatMap(p -> {
            JobSnapshot snapshot = SnapshotFactory.of(job, p, deleted);
            String payload = CloudEvents.encode(SOURCE, JobSnapshot.TYPE, job.id(), snapshot);
            return tx.preparedQuery("INSERT INTO outbox (job_id, version, payload, changed_at) VALUES ($1, $2, $3, now()) "
                    + "ON CONFLICT (job_id) DO UPDATE SET version = excluded.version, payload = excluded.payload, "
                    + "changed_at = excluded.changed_at WHERE outbox.version < excluded.version")
                    .execute(Tuple.of(job.id(), job.version(), payload)).replaceWithVoid();
        });
    }
}
