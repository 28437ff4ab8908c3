package io.jobmon.metrics.ingest;

import com.fasterxml.jackson.core.JsonGenerator;
import io.jobmon.contracts.events.CloudEvent;
import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.MetricSamples;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Writes a {@link MetricSamples} CloudEvent exactly as {@link CloudEvents#encode} does, but serialises each label
 * map once per record rather than once per sample: a remote-written series shares one map among its samples, and
 * the labels are most of the bytes.
 */
public final class SamplesJson {

    private SamplesJson() {
    }

    public static String encode(String source, String node, List<MetricSamples.Sample> samples) {
        StringWriter out = new StringWriter(samples.size() * 200 + 256);
        Map<Map<String, String>, String> labelsJson = new IdentityHashMap<>();
        try (JsonGenerator g = CloudEvents.MAPPER.getFactory().createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("specversion", CloudEvent.SPEC_VERSION);
            g.writeStringField("id", UUID.randomUUID().toString());
            g.writeStringField("source", source);
            g.writeStringField("type", MetricSamples.TYPE);
            g.writeStringField("subject", node);
            g.writeStringField("time", Instant.now().toString());
            g.writeStringField("datacontenttype", CloudEvent.JSON);
            g.writeObjectFieldStart("data");
            g.writeStringField("node", node);
            g.writeArrayFieldStart("samples");
            for (MetricSamples.Sample s : samples) {
                g.writeStartObject();
                g.writeStringField("name", s.name());
                g.writeFieldName("labels");
                if (s.labels() == null) {
                    g.writeNull();
                } else {
                    g.writeRawValue(labelsJson.computeIfAbsent(s.labels(), CloudEvents::toJson));
                }
                g.writeNumberField("timestampMs", s.timestampMs());
                g.writeNumberField("value", s.value());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }
}
