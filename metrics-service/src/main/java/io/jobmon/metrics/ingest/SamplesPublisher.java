package io.jobmon.metrics.ingest;

import io.jobmon.contracts.events.MetricSamples;
import io.jobmon.contracts.events.MetricSamplesBinary;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * Puts series on {@code jobmon.metrics.samples}, keyed by node, as {@link MetricSamples} records of at most
 * {@code perRecord} points in the binary form ({@link MetricSamplesBinary}, ADR 0007; the consumer still reads the
 * JSON CloudEvents written before): what the scraper and the remote-write receiver share. Completes when the broker
 * has them all.
 */
@ApplicationScoped
public class SamplesPublisher {

    private final MutinyEmitter<byte[]> emitter;

    public SamplesPublisher(@Channel("samples-out") MutinyEmitter<byte[]> emitter) {
        this.emitter = emitter;
    }

    public Uni<Void> publish(String node, List<MetricSamples.Series> series, int perRecord) {
        if (series.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return Multi.createFrom().iterable(SeriesBuilder.split(series, perRecord)).onItem().transformToUniAndMerge(part -> {
            byte[] value = MetricSamplesBinary.encode(node, part);
            Message<byte[]> m = Message.of(value).addMetadata(OutgoingKafkaRecordMetadata.<String>builder().withKey(node).build());
            return emitter.sendMessage(m);
        }).collect().last().replaceWithVoid();
    }
}
