package io.jobmon.metrics.ingest;

import io.jobmon.contracts.events.MetricSamples;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * Puts samples on {@code jobmon.metrics.samples}, keyed by node, as {@link MetricSamples} CloudEvents of at most
 * {@code perRecord} samples: what the scraper and the remote-write receiver share. Completes when the broker has
 * them all.
 */
@ApplicationScoped
public class SamplesPublisher {

    public static final String SOURCE = "/jobmon/metrics-service";

    private final MutinyEmitter<String> emitter;

    public SamplesPublisher(@Channel("samples-out") MutinyEmitter<String> emitter) {
        this.emitter = emitter;
    }

    public Uni<Void> publish(String node, List<MetricSamples.Sample> samples, int perRecord) {
        if (samples.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        int parts = (samples.size() + perRecord - 1) / perRecord;
        return Multi.createFrom().range(0, parts).onItem().transformToUniAndMerge(i -> {
            List<MetricSamples.Sample> part = samples.subList(i * perRecord, Math.min(samples.size(), (i + 1) * perRecord));
            String value = SamplesJson.encode(SOURCE, node, part);
            Message<String> m = Message.of(value).addMetadata(OutgoingKafkaRecordMetadata.<String>builder().withKey(node).build());
            return emitter.sendMessage(m);
        }).collect().last().replaceWithVoid();
    }
}
