package io.jobmon.events.ingest;

import io.jobmon.contracts.events.InvalidRecordException;
import io.jobmon.contracts.events.Topics;
import io.jobmon.contracts.messaging.ConsumerRule;
import io.jobmon.contracts.outbox.Outbox;
import io.smallrye.mutiny.Uni;
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
        List<RawRecord> valid = new ArrayList<>();
        List<Uni<Void>> dead = new ArrayList<>();
        Map<Integer, Long> last = new HashMap<>();
        for (KafkaRecord<String, String> record : batch.getRecords()) {
            long offset = record.getMetadata(IncomingKafkaRecordMetadata.class).orElseThrow().getOffset();
            last.merge(record.getPartition(), offset, Math::max);
            try {
                RawRecord r = RecordDecoder.decode(record.getKey(), record.getPayload(), record.getPartition(), offset,
                        record.getTimestamp());
                if (r != null) {
                    valid.add(r);
                }
            } catch (InvalidRecordException e) {
                LOG.debugf("invalid record at %d/%d: %s", record.getPartition(), offset, e.getMessage());
                dead.add(Uni.createFrom().completionStage(() -> record.nack(e)));
            }
        }
        metrics.decoded(System.nanoTime() - decodeStart);
        if (last.isEmpty()) {
            return Uni.createFrom().completionStage(batch::ack);
        }
        // Dead letters first: a crash before the commit re-reads the batch and may dead-letter a record twice,
        // but never loses one.
        Uni<Void> deadLettered = dead.isEmpty() ? Uni.createFrom().voidItem()
                : Uni.join().all(dead).andFailFast().replaceWithVoid();
        long[] stageStart = new long[1]; // when the current stage (transaction, then publish) began
        return deadLettered
                .invoke(() -> stageStart[0] = System.nanoTime())
                // The records are valid: a failing store is retried until it succeeds (the consumer rule), never
                // skipped; the partition stays where it is.
                .chain(() -> rule.apply(CHANNEL, () -> ingest.apply(Topics.K8S_RAW, valid, last)))
                .invoke(result -> {
                    metrics.batch(result, dead.size());
                    rule.count(CHANNEL, Topics.K8S_RAW, ConsumerRule.Outcome.APPLIED, valid.size());
                    rule.count(CHANNEL, Topics.K8S_RAW, ConsumerRule.Outcome.DEAD_LETTERED, dead.size());
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
