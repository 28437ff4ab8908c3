package io.jobmon.events.ingest;

import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;

/**
 * Publishes committed transitions to {@code jobmon.job.status} (key jobId) in outbox order, then removes them
 * from the outbox. A crash in between republishes them: consumers drop a sequence they already applied.
 */
@ApplicationScoped
public class StatusPublisher {

    private final MutinyEmitter<String> emitter;
    private final OutboxRepository outbox;

    /**
     * The emitter buffers what the Kafka sink has not requested yet: a batch sends all its transitions (up to one
     * per record) at once and waits for their acks, so the buffer holds at most the batches in flight.
     */
    public StatusPublisher(@Channel("job-status") @OnOverflow(OnOverflow.Strategy.UNBOUNDED_BUFFER)
            MutinyEmitter<String> emitter, OutboxRepository outbox) {
        this.emitter = emitter;
        this.outbox = outbox;
    }

    /** Sends every transition (the producer keeps their order per job), waits for the broker, clears the outbox. */
    public Uni<Void> publish(List<OutboxRepository.Pending> pending) {
        if (pending.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return send(pending).chain(() -> outbox.remove(outbox.pool(), pending));
    }

    /** Sends without touching the outbox (the sweeper removes inside its own transaction). */
    public Uni<Void> send(List<OutboxRepository.Pending> pending) {
        List<Uni<Void>> acks = new ArrayList<>(pending.size());
        for (OutboxRepository.Pending p : pending) {
            Message<String> m = Message.of(p.value()).addMetadata(
                    OutgoingKafkaRecordMetadata.<String>builder().withKey(p.jobId()).build());
            acks.add(emitter.sendMessage(m));
        }
        return Uni.join().all(acks).andFailFast().replaceWithVoid();
    }
}
