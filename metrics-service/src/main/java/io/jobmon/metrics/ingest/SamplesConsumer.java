package io.jobmon.metrics.ingest;

import io.jobmon.contracts.events.Topics;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/** Consumes {@code jobmon.metrics.samples} in batches (one poll, partition order kept) under the consumer rule. */
@ApplicationScoped
public class SamplesConsumer {

    private final IngestService ingest;
    private final IngestMetrics metrics;

    public SamplesConsumer(IngestService ingest, IngestMetrics metrics) {
        this.ingest = ingest;
        this.metrics = metrics;
    }

    @Incoming("samples")
    public Uni<Void> consume(KafkaRecordBatch<String, String> batch) {
        long start = System.nanoTime();
        AtomicInteger valid = new AtomicInteger();
        return ConsumerRule.batch(batch,
                (record, partition, offset) -> SamplesDecoder.decode(record.getKey(), record.getPayload(), partition,
                        offset, record.getTimestamp().toEpochMilli()),
                (records, last) -> {
                    valid.set(records.size());
                    return ingest.apply(Topics.METRICS_SAMPLES, records, last)
                            .invoke(r -> metrics.batch(r, batch.getRecords().size() - records.size(),
                                    System.nanoTime() - start))
                            .replaceWithVoid();
                });
    }
}
