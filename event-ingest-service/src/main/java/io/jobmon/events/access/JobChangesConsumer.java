package io.jobmon.events.access;

import io.jobmon.contracts.events.JobSnapshot;
import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.events.Topics;
import io.jobmon.contracts.messaging.ConsumerRule;
import io.jobmon.contracts.messaging.Envelopes;
import io.jobmon.contracts.readmodel.JobAccessStore;
import io.jobmon.events.ingest.StopService;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Keeps the job-access read model from {@code jobmon.job.changes} (consumer group of this service) and tells the
 * status derivation when job-service stops a job (a later deletion of its pods then means STOPPED) — both in one
 * transaction, under the suite's consumer rule: an invalid snapshot to the DLQ, any other failure retried.
 */
@ApplicationScoped
public class JobChangesConsumer {

    private final Pool pool;
    private final StopService stops;
    private final ConsumerRule rule;

    public JobChangesConsumer(Pool pool, StopService stops, ConsumerRule rule) {
        this.pool = pool;
        this.stops = stops;
        this.rule = rule;
    }

    @Incoming("job-changes")
    public Uni<Void> consume(ConsumerRecord<String, String> record) {
        return rule.handle("job-changes", Topics.JOB_CHANGES, () -> apply(record));
    }

    private Uni<Void> apply(ConsumerRecord<String, String> record) {
        if (record.value() == null) {
            return new JobAccessStore(pool).applyRecord(record.key(), null);
        }
        JobSnapshot snapshot = Envelopes.JOB_SNAPSHOT.data(record.key(), record.value());
        boolean stopping = snapshot.status() == JobStatus.STOPPING || snapshot.status() == JobStatus.STOPPED;
        return pool.withTransaction(tx -> new JobAccessStore(tx).apply(snapshot)
                .chain(() -> stopping ? stops.stopRequested(tx, snapshot.jobId()) : Uni.createFrom().voidItem()))
                .call(() -> stopping ? stops.publish() : Uni.createFrom().voidItem());
    }
}
