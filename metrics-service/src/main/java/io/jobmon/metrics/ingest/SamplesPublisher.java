package io.jobmon.metrics.ingest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.MetricSamples;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
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

    /**
     * The suite's JSON (contracts' mapper) written straight to UTF-8 bytes, the Kafka record's value, with Jackson's
     * shortest-representation double writer (the same doubles read back; values are most of a record's numbers).
     */
    private static final ObjectWriter WRITER = CloudEvents.MAPPER.writer().with(StreamWriteFeature.USE_FAST_DOUBLE_WRITER);

    private final MutinyEmitter<byte[]> emitter;

    public SamplesPublisher(@Channel("samples-out") MutinyEmitter<byte[]> emitter) {
        this.emitter = emitter;
    }

    public Uni<Void> publish(String node, List<MetricSamples.Series> series, int perRecord) {
        if (series.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return Multi.createFrom().iterable(SeriesBuilder.split(series, perRecord)).onItem().transformToUniAndMerge(part -> {
            byte[] value = encodeBytes(node, part);
            Message<byte[]> m = Message.of(value).addMetadata(OutgoingKafkaRecordMetadata.<String>builder().withKey(node).build());
            return emitter.sendMessage(m);
        }).collect().last().replaceWithVoid();
    }

    /** The record value: a {@link MetricSamples} CloudEvent of the series form, UTF-8 JSON. */
    public static byte[] encodeBytes(String node, List<MetricSamples.Series> series) {
        try {
            return WRITER.writeValueAsBytes(CloudEvents.wrap(SOURCE, MetricSamples.TYPE, node,
                    MetricSamples.ofSeries(node, series)));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot encode the samples of " + node, e);
        }
    }

    /** {@link #encodeBytes} as text. */
    public static String encode(String node, List<MetricSamples.Series> series) {
        return new String(encodeBytes(node, series), StandardCharsets.UTF_8);
    }
}
