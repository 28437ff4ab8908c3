package io.jobmon.logs.jobs;

import io.jobmon.contracts.events.JobSnapshot;
import io.jobmon.contracts.readmodel.JobChanges;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Keeps the job-access read model and the jobs' facts (name, run window, pods, nodes) from {@code jobmon.job.changes}
 * in one transaction (contracts' {@link JobChanges}: an invalid snapshot to the DLQ, any other failure retried).
 */
@ApplicationScoped
public class JobChangesConsumer implements JobChanges.Facts {

    private final JobChanges changes;
    private final JobRepository jobs;

    public JobChangesConsumer(JobChanges changes, JobRepository jobs) {
        this.changes = changes;
        this.jobs = jobs;
    }

    @Incoming(JobChanges.CHANNEL)
    public Uni<Void> consume(ConsumerRecord<String, String> record) {
        return changes.consume(record, this);
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
