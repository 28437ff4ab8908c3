package io.jobmon.events.access;

import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.JobSnapshot;
import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.readmodel.JobAccessStore;
import io.jobmon.events.ingest.StopService;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Keeps the job-access read model from {@code jobmon.job.changes} (consumer group of this service), and tells
 * the status derivation when job-service stops a job (a later deletion of its pods then means STOPPED).
 */
@ApplicationScoped
public class JobChangesConsumer {

    private final JobAccessStore store;
    private final StopService stops;

    public JobChangesConsumer(JobAccessStore store, StopService stops) {
        this.store = store;
        this.stops = stops;
    }

    @Incoming("job-changes")
    public Uni<Void> consume(ConsumerRecord<String, String> record) {
        if (record.value() == null) {
            return store.applyRecord(record.key(), null);
        }
        JobSnapshot snapshot = CloudEvents.decode(record.value(), JobSnapshot.class).data();
        Uni<Void> applied = store.apply(snapshot);
        if (snapshot.status() == JobStatus.STOPPING || snapshot.status() == JobStatus.STOPPED) {
            return applied.chain(() -> stops.stopRequested(snapshot.jobId()));
        }
        return applied;
    }
}
