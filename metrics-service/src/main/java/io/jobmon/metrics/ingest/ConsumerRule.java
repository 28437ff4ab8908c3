package io.jobmon.metrics.ingest;

import io.jobmon.contracts.events.InvalidRecordException;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import org.jboss.logging.Logger;

/**
 * The suite's consumer failure rule, in one place until the shared one of {@code io.jobmon.contracts.messaging}
 * replaces it: a record whose decoding throws {@link InvalidRecordException} goes to the topic's DLQ at once
 * with the reason (nack with {@code failure-strategy=dead-letter-queue}); any other failure of applying the
 * valid records is retried with capped backoff until it succeeds, holding the partition.
 */
public final class ConsumerRule {

    private static final Logger LOG = Logger.getLogger(ConsumerRule.class);
    static final Duration FIRST_BACKOFF = Duration.ofMillis(100);
    static final Duration MAX_BACKOFF = Duration.ofSeconds(10);

    /** Decodes one record; throws {@link InvalidRecordException} with a reason a person can act on. */
    @FunctionalInterface
    public interface Decoder<T> {
        T decode(KafkaRecord<String, String> record, int partition, long offset);
    }

    private ConsumerRule() {
    }

    /**
     * @param apply the valid records (in partition order) and the last offset of the batch per partition,
     *        invalid records included; idempotent on redelivery
     */
    public static <T> Uni<Void> batch(KafkaRecordBatch<String, String> batch, Decoder<T> decoder,
            BiFunction<List<T>, Map<Integer, Long>, Uni<Void>> apply) {
        List<T> valid = new ArrayList<>();
        List<Uni<Void>> dead = new ArrayList<>();
        Map<Integer, Long> last = new HashMap<>();
        for (KafkaRecord<String, String> record : batch.getRecords()) {
            long offset = record.getMetadata(IncomingKafkaRecordMetadata.class).map(m -> m.getOffset()).orElse(-1L);
            last.merge(record.getPartition(), offset, Math::max);
            try {
                T decoded = decoder.decode(record, record.getPartition(), offset);
                if (decoded != null) {
                    valid.add(decoded);
                }
            } catch (InvalidRecordException e) {
                LOG.debugf("invalid record at %d/%d: %s", record.getPartition(), offset, e.getMessage());
                dead.add(Uni.createFrom().completionStage(() -> record.nack(e)));
            }
        }
        if (last.isEmpty()) {
            return Uni.createFrom().completionStage(batch::ack);
        }
        // Dead letters first: a crash before the commit may dead-letter a record twice, never lose one.
        Uni<Void> deadLettered = dead.isEmpty() ? Uni.createFrom().voidItem()
                : Uni.join().all(dead).andFailFast().replaceWithVoid();
        return deadLettered
                .chain(() -> Uni.createFrom().deferred(() -> apply.apply(valid, last))
                        .onFailure().invoke(e -> LOG.warnf("batch of %d records failed, retrying: %s", valid.size(), e))
                        .onFailure().retry().withBackOff(FIRST_BACKOFF, MAX_BACKOFF).indefinitely())
                .chain(() -> Uni.createFrom().completionStage(batch::ack));
    }
}
