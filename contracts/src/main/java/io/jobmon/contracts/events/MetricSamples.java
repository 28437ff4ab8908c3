package io.jobmon.contracts.events;

import java.util.List;
import java.util.Map;

/** A batch of samples on {@code jobmon.metrics.samples} (key node), as scraped or remote-written. */
public record MetricSamples(String node, List<Sample> samples) implements Validatable {

    public static final String TYPE = "io.jobmon.metrics.samples.v1";

    /** One sample: the metric name, its labels as the exporter wrote them, epoch milliseconds, value. */
    public record Sample(String name, Map<String, String> labels, long timestampMs, double value) {
    }

    @Override
    public void validate() {
        Validatable.require(samples != null, "missing 'samples'");
        for (int i = 0; i < samples.size(); i++) {
            Validatable.require(samples.get(i) != null && samples.get(i).name() != null,
                    "samples[" + i + "] without 'name'");
        }
    }
}
