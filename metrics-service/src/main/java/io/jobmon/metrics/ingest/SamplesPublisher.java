package io.jobmon.metrics.ingest;

import io.jobmon.contracts.events.CloudEvents;
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
 * Puts series on {@code jobmon.metrics.samples}, keyed by node, as {@link MetricSamples} CloudEvents in the series
 * form (labels once per series) of at most {@code perRecord} points: what the scraper and the remote-write receiver
 * share. Completes when the broker has them all.
 */
@ApplicationScoped
public class SamplesPublisher {

    public static final String SOURCE = "/jobmon/metrics-service";

    private final MutinyEmitter<String> emitter;

    public SamplesPublisher(@Channel("samples-out") MutinyEmitter<String> emitter) {
        this.emitter = emitter;
    }

    public Uni<Void> publish(String node, List<MetricSamples.Series> series, int perRecord) {
        if (series.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return Multi.createFrom().iterable(SeriesBuilder.split(series, perRecord)).onItem().transformToUniAndMerge(part -> {
            String value = encode(node, part);
            Message<String> m = Message.of(value).addMetadata(OutgoingKafkaRecordMetadata.<String>builder().withKey(node).build());
            return emitter.sendMessage(m);
        }).collect().last().replaceWithVoid();
    }

    /** The record value: a {@link MetricSamples} CloudEvent of the series form. */
    public static String encode(String node, List<MetricSamples.Series> series) {
        return CloudEvents.encode(SOURCE, MetricSamples.TYPE, node, MetricSamples.ofSeries(node, series));
    }
}
