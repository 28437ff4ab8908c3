package io.jobmon.diagnosis.messaging;

import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.InvalidRecordException;
import io.jobmon.contracts.events.JobSnapshot;
import io.jobmon.contracts.readmodel.JobAccessStore;
import io.jobmon.diagnosis.access.AccessWiring;
import io.jobmon.diagnosis.repository.SnapshotRepository;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * {@code jobmon.job.changes} → the job-access read model and the job snapshots, in one transaction. Idempotent:
 * a snapshot no newer than the stored one changes nothing. An invalid record goes to the DLQ with the reason.
 */
@ApplicationScoped
public class JobChangesConsumer {

    private final Pool pool;
    private final SnapshotRepository snapshots;

    public JobChangesConsumer(Pool pool, SnapshotRepository snapshots) {
        this.pool = pool;
        this.snapshots = snapshots;
    }

    @Incoming("job-changes")
    public Uni<Void> consume(ConsumerRecord<String, String> record) {
        if (record.value() == null) {
            return record.key() == null ? Uni.createFrom().voidItem()
                    : Transient.retry(pool.withTransaction(tx -> new JobAccessStore(tx, AccessWiring.SCHEMA)
                            .tombstone(record.key()).chain(() -> snapshots.tombstone(tx, record.key()))));
        }
        return Uni.createFrom().item(() -> decode(record)).chain(snapshot -> Transient.retry(
                pool.withTransaction(tx -> new JobAccessStore(tx, AccessWiring.SCHEMA).apply(snapshot)
                        .chain(() -> snapshots.apply(tx, snapshot)))));
    }

    private static JobSnapshot decode(ConsumerRecord<String, String> record) {
        JobSnapshot snapshot = CloudEvents.decode(record.value(), JobSnapshot.class).data();
        if (record.key() != null && !record.key().equals(snapshot.jobId())) {
            throw new InvalidRecordException("key '" + record.key() + "' is not the snapshot's jobId '"
                    + snapshot.jobId() + "'");
        }
        return snapshot;
    }
}
