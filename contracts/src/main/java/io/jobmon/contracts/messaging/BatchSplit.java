package io.jobmon.contracts.messaging;

import io.jobmon.contracts.events.InvalidRecordException;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.IncomingKafkaRecord;
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
    public interface Decoder<K, V, T> {
        T decode(KafkaRecord<K, V> record, long offset);
    }

    private final List<T> valid = new ArrayList<>();
    private final List<KafkaRecord<?, ?>> invalid = new ArrayList<>();
    private final List<InvalidRecordException> reasons = new ArrayList<>();
    private final Map<Integer, Long> last = new HashMap<>();

    private BatchSplit() {
    }

    /** The batch's records, of any key and value type (text, bytes), split by the decoder. */
    public static <K, V, T> BatchSplit<T> of(KafkaRecordBatch<K, V> batch, Decoder<K, V, T> decoder) {
        return of(batch.getRecords(), decoder);
    }

    /** Some of a batch's records (those of some partitions, decoded on one thread), split by the decoder. */
    public static <K, V, T> BatchSplit<T> of(Iterable<? extends KafkaRecord<K, V>> records, Decoder<K, V, T> decoder) {
        BatchSplit<T> split = new BatchSplit<>();
        for (KafkaRecord<K, V> record : records) {
            long offset = offset(record);
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

    /** The splits of one batch's parts (disjoint partitions) as one: valid and invalid records in the parts' order. */
    public static <T> BatchSplit<T> join(List<BatchSplit<T>> parts) {
        if (parts.size() == 1) {
            return parts.get(0);
        }
        BatchSplit<T> all = new BatchSplit<>();
        for (BatchSplit<T> p : parts) {
            all.valid.addAll(p.valid);
            all.invalid.addAll(p.invalid);
            all.reasons.addAll(p.reasons);
            p.last.forEach((partition, offset) -> all.last.merge(partition, offset, Math::max));
        }
        return all;
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
            KafkaRecord<?, ?> record = invalid.get(i);
            InvalidRecordException reason = reasons.get(i);
            nacks.add(Uni.createFrom().completionStage(() -> record.nack(reason)));
        }
        return Uni.join().all(nacks).andFailFast().replaceWithVoid();
    }

    /** The record's offset, read from the record itself when it can be (a metadata lookup per record is not free). */
    private static long offset(KafkaRecord<?, ?> record) {
        return record instanceof IncomingKafkaRecord<?, ?> in ? in.getOffset()
                : record.getMetadata(IncomingKafkaRecordMetadata.class).orElseThrow().getOffset();
    }
}
