package io.jobmon.diagnosis.messaging;

import io.jobmon.contracts.events.JobSnapshot;
import io.jobmon.contracts.readmodel.JobChanges;
import io.jobmon.diagnosis.repository.SnapshotRepository;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * {@code jobmon.job.changes} → the job-access read model and the job snapshots, in one transaction (contracts'
 * {@link JobChanges}: an invalid snapshot to the DLQ with the reason, any other failure retried until it succeeds).
 * Idempotent: a snapshot no newer than the stored one changes nothing.
 */
@ApplicationScoped
public class JobChangesConsumer implements JobChanges.Facts {

    private final JobChanges changes;
    private final SnapshotRepository snapshots;

    public JobChangesConsumer(JobChanges changes, SnapshotRepository snapshots) {
        this.changes = changes;
        this.snapshots = snapshots;
    }

    @Incoming(JobChanges.CHANNEL)
    public Uni<Void> consume(ConsumerRecord<String, String> record) {
        return changes.consume(record, this);
    }

    @Override
    public Uni<Void> apply(SqlConnection tx, JobSnapshot snapshot, Instant at) {
        return snapshots.apply(tx, snapshot);
    }

    @Override
    public Uni<Void> tombstone(SqlConnection tx, String jobId) {
        return snapshots.tombstone(tx, jobId);
    }
}
