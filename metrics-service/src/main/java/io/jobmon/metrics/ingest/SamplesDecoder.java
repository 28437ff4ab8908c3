package io.jobmon.metrics.ingest;

import io.jobmon.contracts.events.InvalidRecordException;
import io.jobmon.contracts.events.MetricSamples;
import io.jobmon.contracts.events.MetricSamplesBinary;
import io.jobmon.contracts.messaging.Envelopes;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns a record of {@code jobmon.metrics.samples} into a {@link SampleBatch}, or says why it is invalid. A value
 * whose first byte is {@link MetricSamplesBinary#MAGIC} is the binary form (what jobmon writes); any other is a JSON
 * CloudEvent under the suite's envelope check (CloudEvents 1.0, the samples type), in its {@code series} form or the
 * first form, {@code samples}. Then both need the size bound, a node and sane series.
 */
public final class SamplesDecoder {

    private SamplesDecoder() {
    }

    /** @throws InvalidRecordException with the reason the DLQ records */
    public static SampleBatch decode(String key, byte[] value, int partition, long offset, long kafkaTimeMs) {
        if (value != null && value.length > Envelopes.METRIC_SAMPLES.maxBytes()) {
            throw new InvalidRecordException("record of " + value.length + " bytes is over the "
                    + Envelopes.METRIC_SAMPLES.maxBytes() + "-byte limit");
        }
        MetricSamples data = MetricSamplesBinary.isBinary(value) ? MetricSamplesBinary.decode(value, RecordStrings.SHARED)
                : Envelopes.METRIC_SAMPLES.data(key, value == null ? null : new String(value, StandardCharsets.UTF_8));
        return batch(key, data, partition, offset, kafkaTimeMs);
    }

    /** A record value that is text: the JSON form. */
    public static SampleBatch decode(String key, String value, int partition, long offset, long kafkaTimeMs) {
        return batch(key, Envelopes.METRIC_SAMPLES.data(key, value), partition, offset, kafkaTimeMs);
    }

    private static SampleBatch batch(String key, MetricSamples data, int partition, long offset, long kafkaTimeMs) {
        String node = data.node() != null && !data.node().isBlank() ? data.node() : key;
        if (node == null || node.isBlank()) {
            throw new InvalidRecordException("no node: neither 'node' nor the record key names one");
        }
        List<MetricSamples.Series> series = new ArrayList<>();
        int count = 0;
        if (data.series() != null) {
            for (int i = 0; i < data.series().size(); i++) {
                MetricSamples.Series s = data.series().get(i);
                if (s.name().isBlank()) {
                    throw new InvalidRecordException("series[" + i + "] has an empty 'name'");
                }
                for (long t : s.timestampsMs()) {
                    if (t <= 0) {
                        throw new InvalidRecordException("series[" + i + "] ('" + s.name() + "') has a timestamp " + t
                                + " (epoch milliseconds expected)");
                    }
                }
                if (s.size() > 0) {
                    count += s.size();
                    series.add(s);
                }
            }
        }
        if (data.samples() != null) {
            List<MetricSamples.Sample> samples = data.samples();
            for (int i = 0; i < samples.size(); i++) {
                MetricSamples.Sample s = samples.get(i);
                if (s.name().isBlank()) {
                    throw new InvalidRecordException("samples[" + i + "] has an empty 'name'");
                }
                if (s.timestampMs() <= 0) {
                    throw new InvalidRecordException("samples[" + i + "] ('" + s.name() + "') has no 'timestampMs'");
                }
            }
            series.addAll(SeriesBuilder.of(samples));
            count += samples.size();
        }
        return new SampleBatch(partition, offset, kafkaTimeMs, node, series, count);
    }
}
