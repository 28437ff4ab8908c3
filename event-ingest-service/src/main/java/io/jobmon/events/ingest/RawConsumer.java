package io.jobmon.events.ingest;

import io.jobmon.contracts.events.Topics;
import io.jobmon.contracts.messaging.BatchSplit;
import io.jobmon.contracts.messaging.ConsumerRule;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Consumes {@code jobmon.k8s.raw} in batches (one poll, partition order kept): invalid records are nacked one by
 * one into {@code jobmon.k8s.raw.dlq} with the reason, the rest applied in one transaction (retried until it
 * succeeds: the suite's consumer rule), the batch acknowledged, and the transitions it committed published by this
 * instance while the next batch is applied ({@link StatusPublisher}).
 */
@ApplicationScoped
public class RawConsumer {

    static final String CHANNEL = "k8s-raw";

    private final IngestService ingest;
    private final StatusPublisher publisher;
    private final IngestMetrics metrics;
    private final ConsumerRule rule;

    public RawConsumer(IngestService ingest, StatusPublisher publisher, IngestMetrics metrics, ConsumerRule rule) {
        this.ingest = ingest;
        this.publisher = publisher;
        this.metrics = metrics;
        this.rule = rule;
    }

    @Incoming("k8s-raw")
    public Uni<Void> consume(KafkaRecordBatch<String, RawValue> batch) {
        long decodeStart = System.nanoTime();
        BatchSplit<RawRecord> split = BatchSplit.of(batch, (record, offset) -> RecordDecoder.decode(record.getKey(),
                record.getPayload(), record.getPartition(), offset, record.getTimestamp()));
        metrics.decoded(System.nanoTime() - decodeStart);
        if (split.isEmpty()) {
            return Uni.createFrom().completionStage(batch::ack);
        }
        long[] stageStart = new long[1]; // when the transaction began
        return split.deadLetter()
                .invoke(() -> stageStart[0] = System.nanoTime())
                // The records are valid: a failing store is retried until it succeeds (the consumer rule), never
                // skipped; the partition stays where it is.
                .chain(() -> rule.apply(CHANNEL, () -> ingest.apply(Topics.K8S_RAW, split.valid(), split.last())))
                .invoke(result -> {
                    metrics.batch(result, split.invalid());
                    rule.count(CHANNEL, Topics.K8S_RAW, ConsumerRule.Outcome.APPLIED, split.valid().size());
                    rule.count(CHANNEL, Topics.K8S_RAW, ConsumerRule.Outcome.DEAD_LETTERED, split.invalid());
                    metrics.transaction(System.nanoTime() - stageStart[0], batch.getRecords().size());
                })
                // The batch is committed with its transitions in the outbox: publish them now rather than on the
                // relay's next round, while the next batch is applied (after the previous batch's are out). A
                // failure there is the relay's to retry; it never fails stored records.
                .chain(result -> publisher.handOver(result.transitions()))
                .chain(() -> Uni.createFrom().completionStage(batch::ack));
    }
}
