package io.jobmon.metrics.ingest;

import io.jobmon.contracts.events.InvalidRecordException;
import io.jobmon.contracts.events.Topics;
import io.jobmon.contracts.messaging.ConsumerRule;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.smallrye.reactive.messaging.kafka.IncomingKafkaRecord;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * Consumes {@code jobmon.metrics.samples} in batches (one poll, partition order kept) under the suite's consumer
 * rule, split as contracts' {@code BatchSplit} does but over the records' bytes (the binary form is not text): an
 * invalid record is nacked into {@code jobmon.metrics.samples.dlq} with the reason at once; storing the valid ones is
 * retried with capped backoff until it succeeds, holding the partition.
 */
@ApplicationScoped
public class SamplesConsumer {

    static final String CHANNEL = "samples";
    private static final Logger LOG = Logger.getLogger(SamplesConsumer.class);

    private final IngestService ingest;
    private final IngestMetrics metrics;
    private final ConsumerRule rule;

    public SamplesConsumer(IngestService ingest, IngestMetrics metrics, ConsumerRule rule) {
        this.ingest = ingest;
        this.metrics = metrics;
        this.rule = rule;
    }

    @Incoming(CHANNEL)
    public Uni<Void> consume(KafkaRecordBatch<String, byte[]> batch) {
        // Decoding a batch is a few hundred thousand samples: on a worker thread, never the event loop.
        return Uni.createFrom().deferred(() -> handle(batch)).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }

    private record Invalid(KafkaRecord<String, byte[]> record, InvalidRecordException reason) {
    }

    private Uni<Void> handle(KafkaRecordBatch<String, byte[]> batch) {
        long start = System.nanoTime();
        List<SampleBatch> valid = new ArrayList<>();
        List<Invalid> invalid = new ArrayList<>();
        Map<Integer, Long> last = new HashMap<>();
        for (KafkaRecord<String, byte[]> record : batch.getRecords()) {
            long offset = offset(record);
            last.merge(record.getPartition(), offset, Math::max);
            try {
                valid.add(SamplesDecoder.decode(record.getKey(), record.getPayload(), record.getPartition(), offset,
                        record.getTimestamp().toEpochMilli()));
            } catch (InvalidRecordException e) {
                LOG.debugf("invalid record at %d/%d: %s", record.getPartition(), offset, e.getMessage());
                invalid.add(new Invalid(record, e));
            }
        }
        if (last.isEmpty()) {
            return Uni.createFrom().completionStage(batch::ack);
        }
        return deadLetter(invalid)
                .chain(() -> rule.apply(CHANNEL, () -> ingest.apply(Topics.METRICS_SAMPLES, valid, last)))
                .invoke(result -> {
                    metrics.batch(result, invalid.size(), System.nanoTime() - start);
                    rule.count(CHANNEL, Topics.METRICS_SAMPLES, ConsumerRule.Outcome.APPLIED, valid.size());
                    rule.count(CHANNEL, Topics.METRICS_SAMPLES, ConsumerRule.Outcome.DEAD_LETTERED, invalid.size());
                })
                .chain(() -> Uni.createFrom().completionStage(batch::ack));
    }

    /**
     * The invalid records to the DLQ with their reasons, before the valid ones are stored: a crash before the commit
     * reads the batch again and may dead-letter a record twice, but never loses one.
     */
    private static Uni<Void> deadLetter(List<Invalid> invalid) {
        if (invalid.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        List<Uni<Void>> nacks = new ArrayList<>(invalid.size());
        for (Invalid i : invalid) {
            nacks.add(Uni.createFrom().completionStage(() -> i.record().nack(i.reason())));
        }
        return Uni.join().all(nacks).andFailFast().replaceWithVoid();
    }

    /** The record's offset, read from the record itself when it can be (a metadata lookup per record is not free). */
    private static long offset(KafkaRecord<String, byte[]> record) {
        return record instanceof IncomingKafkaRecord<String, byte[]> in ? in.getOffset()
                : record.getMetadata(IncomingKafkaRecordMetadata.class).orElseThrow().getOffset();
    }
}
