package io.jobmon.events.ingest;

import io.jobmon.contracts.events.Topics;
import io.jobmon.contracts.messaging.BatchSplit;
import io.jobmon.contracts.messaging.ConsumerRule;
import io.jobmon.contracts.outbox.Outbox;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * Consumes {@code jobmon.k8s.raw} in batches (one poll, partition order kept): invalid records are nacked one by
 * one into {@code jobmon.k8s.raw.dlq} with the reason, the rest applied in one transaction (retried until it
 * succeeds: the suite's consumer rule), the transitions published from the outbox, then the batch acknowledged.
 */
@ApplicationScoped
public class RawConsumer {

    static final String CHANNEL = "k8s-raw";

    private static final Logger LOG = Logger.getLogger(RawConsumer.class);

    private final IngestService ingest;
    private final Outbox outbox;
    private final IngestMetrics metrics;
    private final ConsumerRule rule;

    public RawConsumer(IngestService ingest, Outbox outbox, IngestMetrics metrics, ConsumerRule rule) {
        this.ingest = ingest;
        this.outbox = outbox;
        this.metrics = metrics;
        this.rule = rule;
    }

    @Incoming("k8s-raw")
    public Uni<Void> consume(KafkaRecordBatch<String, String> batch) {
        long decodeStart = System.nanoTime();
        BatchSplit<RawRecord> split = BatchSplit.of(batch, (record, offset) -> RecordDecoder.decode(record.getKey(),
                record.getPayload(), record.getPartition(), offset, record.getTimestamp()));
        metrics.decoded(System.nanoTime() - decodeStart);
        if (split.isEmpty()) {
            return Uni.createFrom().completionStage(batch::ack);
        }
        long[] stageStart = new long[1]; // when the current stage (transaction, then publish) began
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
                    stageStart[0] = System.nanoTime();
                })
                // The batch is committed with its transitions in the outbox: publish them now rather than on the
                // relay's next round. A failure here is the relay's to retry; it must not fail stored records.
                .chain(result -> outbox.drain().onFailure().invoke(e -> LOG.warnf(
                        "publishing transitions failed, the outbox relay will: %s", e)).onFailure().recoverWithNull())
                .invoke(() -> metrics.published(System.nanoTime() - stageStart[0]))
                .chain(() -> Uni.createFrom().completionStage(batch::ack));
    }
}
