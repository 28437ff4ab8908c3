package io.jobmon.logs.jobs;

import io.jobmon.contracts.events.JobSnapshot;
import io.jobmon.contracts.readmodel.JobChanges;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;

/**
 * Keeps the job-access read model and the jobs' facts (name, run window, pods, nodes) from {@code jobmon.job.changes}
 * in one transaction (contracts' {@link io.jobmon.contracts.readmodel.JobChangesConsumer} and {@link JobChanges}: an invalid snapshot to the DLQ, any other failure retried).
 */
@ApplicationScoped
public class JobFacts implements JobChanges.Facts {

    private final JobRepository jobs;

    public JobFacts(JobRepository jobs) {
        this.jobs = jobs;
    }

    @Override
    public Uni<Void> apply(SqlConnection tx, JobSnapshot snapshot, Instant at) {
        return jobs.apply(tx, snapshot);
    }

    @Override
    public Uni<Void> tombstone(SqlConnection tx, String jobId) {
        return jobs.tombstone(tx, jobId);
    }
}
