package io.jobmon.diagnosis.messaging;

import io.jobmon.contracts.events.JobSnapshot;
import io.jobmon.contracts.events.Topics;
import io.jobmon.contracts.messaging.ConsumerRule;
import io.jobmon.contracts.messaging.Envelopes;
import io.jobmon.contracts.readmodel.JobAccessStore;
import io.jobmon.diagnosis.repository.SnapshotRepository;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * {@code jobmon.job.changes} → the job-access read model and the job snapshots, in one transaction, under the
 * suite's consumer rule: an invalid snapshot to the DLQ with the reason, any other failure retried until it
 * succeeds. Idempotent: a snapshot no newer than the stored one changes nothing.
 */
@ApplicationScoped
public class JobChangesConsumer {

    private final Pool pool;
    private final SnapshotRepository snapshots;
    private final ConsumerRule rule;

    public JobChangesConsumer(Pool pool, SnapshotRepository snapshots, ConsumerRule rule) {
        this.pool = pool;
        this.snapshots = snapshots;
        this.rule = rule;
    }

    @Incoming("job-changes")
    public Uni<Void> consume(ConsumerRecord<String, String> record) {
        return rule.handle("job-changes", Topics.JOB_CHANGES, () -> apply(record.key(), record.value()));
    }

    private Uni<Void> apply(String key, String value) {
        if (value == null) {
            return key == null ? Uni.createFrom().voidItem()
                    : pool.withTransaction(tx -> new JobAccessStore(tx).tombstone(key)
                            .chain(() -> snapshots.tombstone(tx, key)));
        }
        JobSnapshot snapshot = Envelopes.JOB_SNAPSHOT.data(key, value);
        return pool.withTransaction(tx -> new JobAccessStore(tx).apply(snapshot)
                .chain(() -> snapshots.apply(tx, snapshot)));
    }
}
