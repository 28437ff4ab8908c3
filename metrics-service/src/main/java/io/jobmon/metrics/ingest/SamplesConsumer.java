package io.jobmon.metrics.ingest;

import io.jobmon.contracts.events.Topics;
import io.jobmon.contracts.messaging.BatchSplit;
import io.jobmon.contracts.messaging.ConsumerRule;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Consumes {@code jobmon.metrics.samples} in batches (one poll, partition order kept, split by contracts'
 * {@link BatchSplit} over the records' bytes: the binary form is not text) under the suite's consumer rule: an
 * invalid record is nacked into {@code jobmon.metrics.samples.dlq} with the reason at once; storing the valid ones is
 * retried with capped backoff until it succeeds, holding the partition.
 */
@ApplicationScoped
public class SamplesConsumer {

    static final String CHANNEL = "samples";

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

    private Uni<Void> handle(KafkaRecordBatch<String, byte[]> batch) {
        long start = System.nanoTime();
        BatchSplit<SampleBatch> split = BatchSplit.of(batch, (record, offset) -> SamplesDecoder.decode(record.getKey(),
                record.getPayload(), record.getPartition(), offset, record.getTimestamp().toEpochMilli()));
        if (split.isEmpty()) {
            return Uni.createFrom().completionStage(batch::ack);
        }
        return split.deadLetter()
                .chain(() -> rule.apply(CHANNEL, () -> ingest.apply(Topics.METRICS_SAMPLES, split.valid(), split.last())))
                .invoke(result -> {
                    metrics.batch(result, split.invalid(), System.nanoTime() - start);
                    rule.count(CHANNEL, Topics.METRICS_SAMPLES, ConsumerRule.Outcome.APPLIED, split.valid().size());
                    rule.count(CHANNEL, Topics.METRICS_SAMPLES, ConsumerRule.Outcome.DEAD_LETTERED, split.invalid());
                })
                .chain(() -> Uni.createFrom().completionStage(batch::ack));
    }
}
