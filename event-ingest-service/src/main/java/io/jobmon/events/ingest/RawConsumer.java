package io.jobmon.events.ingest;

import io.jobmon.contracts.events.InvalidRecordException;
import io.jobmon.contracts.events.Topics;
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
 * one into {@code jobmon.k8s.raw.dlq} with the reason, the rest applied in one transaction, the transitions
 * published, then the batch acknowledged.
 */
@ApplicationScoped
public class RawConsumer {

    private static final Logger LOG = Logger.getLogger(RawConsumer.class);

    private final IngestService ingest;
    private final StatusPublisher publisher;
    private final IngestMetrics metrics;

    public RawConsumer(IngestService ingest, StatusPublisher publisher, IngestMetrics metrics) {
        this.ingest = ingest;
        this.publisher = publisher;
        this.metrics = metrics;
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
                RawRecord r = RecordDecoder.decode(record.getPayload(), record.getPartition(), offset,
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
                .chain(() -> ingest.apply(Topics.K8S_RAW, valid, last))
                .invoke(result -> {
                    metrics.batch(result, dead.size());
                    metrics.transaction(System.nanoTime() - stageStart[0], batch.getRecords().size());
                    stageStart[0] = System.nanoTime();
                })
                // The batch is committed: a failed publish leaves its transitions in the outbox for the sweeper and
                // must not fail (or dead-letter) records that are stored.
                .chain(result -> publisher.publish(result.outbox()).onFailure().invoke(e -> LOG.warnf(
                        "publishing %d transitions failed, the outbox sweeper will: %s", result.outbox().size(), e))
                        .onFailure().recoverWithNull())
                .invoke(() -> metrics.published(System.nanoTime() - stageStart[0]))
                .chain(() -> Uni.createFrom().completionStage(batch::ack));
    }
}
