package io.jobmon.contracts.events;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A batch of samples of one node on {@code jobmon.metrics.samples} (key node), as scraped or remote-written.
 * Producers write it in the binary form ({@link MetricSamplesBinary}: the series form below, strings once per
 * record); the JSON CloudEvent forms written before are still read: {@code series} (each series' name and labels
 * once, then its points as two parallel arrays) and the first form, {@code samples} (one object per sample, labels
 * repeated).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record MetricSamples(String node, List<Sample> samples, List<Series> series) implements Validatable {

    public static final String TYPE = "io.jobmon.metrics.samples.v1";

    /** One sample: the metric name, its labels as the exporter wrote them, epoch milliseconds, value. */
    public record Sample(String name, Map<String, String> labels, long timestampMs, double value) {
    }

    /**
     * One series' points: the metric name, its labels as the exporter wrote them (producers sort them by name),
     * and as many epoch milliseconds as values.
     */
    public record Series(String name, Map<String, String> labels, long[] timestampsMs, double[] values) {

        public int size() {
            return timestampsMs == null ? 0 : timestampsMs.length;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Series s && Objects.equals(name, s.name) && Objects.equals(labels, s.labels)
                    && Arrays.equals(timestampsMs, s.timestampsMs) && Arrays.equals(values, s.values);
        }

        @Override
        public int hashCode() {
            return Objects.hash(name, labels, Arrays.hashCode(timestampsMs), Arrays.hashCode(values));
        }

        @Override
        public String toString() {
            return "Series[" + name + labels + ", " + size() + " points]";
        }
    }

    /** The first form: one object per sample. */
    public MetricSamples(String node, List<Sample> samples) {
        this(node, samples, null);
    }

    /** The series form, what jobmon's producers write. */
    public static MetricSamples ofSeries(String node, List<Series> series) {
        return new MetricSamples(node, null, series);
    }

    /** How many samples the batch holds, in either form. */
    public int sampleCount() {
        int n = samples == null ? 0 : samples.size();
        if (series != null) {
            for (Series s : series) {
                n += s == null ? 0 : s.size();
            }
        }
        return n;
    }

    @Override
    public void validate() {
        Validatable.require(samples != null || series != null, "missing 'series' (or 'samples')");
        if (samples != null) {
            for (int i = 0; i < samples.size(); i++) {
                Validatable.require(samples.get(i) != null && samples.get(i).name() != null,
                        "samples[" + i + "] without 'name'");
            }
        }
        if (series != null) {
            for (int i = 0; i < series.size(); i++) {
                Series s = series.get(i);
                Validatable.require(s != null && s.name() != null, "series[" + i + "] without 'name'");
                Validatable.require(s.timestampsMs() != null && s.values() != null,
                        "series[" + i + "] without 'timestampsMs' and 'values'");
                Validatable.require(s.timestampsMs().length == s.values().length, "series[" + i + "] has "
                        + s.timestampsMs().length + " timestamps and " + s.values().length + " values");
            }
        }
    }
}
