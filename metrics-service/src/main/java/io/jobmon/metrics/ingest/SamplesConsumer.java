package io.jobmon.metrics.ingest;

import io.jobmon.contracts.events.InvalidRecordException;
import io.jobmon.contracts.events.Topics;
import io.jobmon.contracts.messaging.ConsumerRule;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
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
 * rule: an invalid record is nacked into {@code jobmon.metrics.samples.dlq} with the reason at once; storing the
 * valid ones is retried with capped backoff until it succeeds, holding the partition.
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
    public Uni<Void> consume(KafkaRecordBatch<String, String> batch) {
        // Decoding a batch is a few hundred thousand samples of JSON: on a worker thread, never the event loop.
        return Uni.createFrom().deferred(() -> handle(batch)).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }

    private Uni<Void> handle(KafkaRecordBatch<String, String> batch) {
        long start = System.nanoTime();
        List<SampleBatch> valid = new ArrayList<>();
        List<Uni<Void>> dead = new ArrayList<>();
        Map<Integer, Long> last = new HashMap<>();
        for (KafkaRecord<String, String> record : batch.getRecords()) {
            long offset = record.getMetadata(IncomingKafkaRecordMetadata.class).orElseThrow().getOffset();
            last.merge(record.getPartition(), offset, Math::max);
            try {
                valid.add(SamplesDecoder.decode(record.getKey(), record.getPayload(), record.getPartition(), offset,
                        record.getTimestamp().toEpochMilli()));
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
                .chain(() -> rule.apply(CHANNEL, () -> ingest.apply(Topics.METRICS_SAMPLES, valid, last)))
                .invoke(result -> {
                    metrics.batch(result, dead.size(), System.nanoTime() - start);
                    rule.count(CHANNEL, Topics.METRICS_SAMPLES, ConsumerRule.Outcome.APPLIED, valid.size());
                    rule.count(CHANNEL, Topics.METRICS_SAMPLES, ConsumerRule.Outcome.DEAD_LETTERED, dead.size());
                })
                .chain(() -> Uni.createFrom().completionStage(batch::ack));
    }
}
