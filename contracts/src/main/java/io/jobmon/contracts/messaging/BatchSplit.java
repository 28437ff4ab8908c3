package io.jobmon.contracts.messaging;

import io.jobmon.contracts.events.InvalidRecordException;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * One polled batch split the suite's way (the batch half of {@link ConsumerRule}): each record decoded, the valid
 * ones kept in partition order, the invalid ones ({@link InvalidRecordException}) set aside to be dead-lettered
 * with their reasons, and the last offset read of each partition (stored with the batch's effects, so records read
 * again after a crash or rebalance are skipped: {@link OffsetRepository}).
 *
 * @param <T> what a record decodes to
 */
public final class BatchSplit<T> {

    private static final Logger LOG = Logger.getLogger(BatchSplit.class);

    /** Decodes one record; {@code null} when it holds nothing to apply; {@link InvalidRecordException} to the DLQ. */
    @FunctionalInterface
    public interface Decoder<T> {
        T decode(KafkaRecord<String, String> record, long offset);
    }

    private final List<T> valid = new ArrayList<>();
    private final List<KafkaRecord<String, String>> invalid = new ArrayList<>();
    private final List<InvalidRecordException> reasons = new ArrayList<>();
    private final Map<Integer, Long> last = new HashMap<>();

    private BatchSplit() {
    }

    public static <T> BatchSplit<T> of(KafkaRecordBatch<String, String> batch, Decoder<T> decoder) {
        BatchSplit<T> split = new BatchSplit<>();
        for (KafkaRecord<String, String> record : batch.getRecords()) {
            long offset = record.getMetadata(IncomingKafkaRecordMetadata.class).orElseThrow().getOffset();
            split.last.merge(record.getPartition(), offset, Math::max);
            try {
                T decoded = decoder.decode(record, offset);
                if (decoded != null) {
                    split.valid.add(decoded);
                }
            } catch (InvalidRecordException e) {
                LOG.debugf("invalid record at %d/%d: %s", record.getPartition(), offset, e.getMessage());
                split.invalid.add(record);
                split.reasons.add(e);
            }
        }
        return split;
    }

    /** The decoded records to apply, in the batch's order. */
    public List<T> valid() {
        return valid;
    }

    /** How many records go to the DLQ. */
    public int invalid() {
        return invalid.size();
    }

    /** The last offset read of each partition of the batch. */
    public Map<Integer, Long> last() {
        return last;
    }

    /** True when the batch held no record at all. */
    public boolean isEmpty() {
        return last.isEmpty();
    }

    /**
     * Sends the invalid records to the channel's DLQ with their reasons. Done before the valid ones are stored: a
     * crash before the commit reads the batch again and may dead-letter a record twice, but never loses one.
     */
    public Uni<Void> deadLetter() {
        if (invalid.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        List<Uni<Void>> nacks = new ArrayList<>(invalid.size());
        for (int i = 0; i < invalid.size(); i++) {
            KafkaRecord<String, String> record = invalid.get(i);
            InvalidRecordException reason = reasons.get(i);
            nacks.add(Uni.createFrom().completionStage(() -> record.nack(reason)));
        }
        return Uni.join().all(nacks).andFailFast().replaceWithVoid();
    }
}
