package io.jobmon.metrics.ingest;

import io.jobmon.contracts.events.MetricSamples;
import java.util.List;

/**
 * One valid record of {@code jobmon.metrics.samples}: its place in the topic and its node's series ({@code samples}
 * points in all).
 */
public record SampleBatch(int partition, long offset, long kafkaTimeMs, String node, List<MetricSamples.Series> series,
        int samples) {
}
