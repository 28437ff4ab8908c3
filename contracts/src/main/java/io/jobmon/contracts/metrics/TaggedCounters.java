package io.jobmon.contracts.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.HashMap;
import java.util.Map;

/**
 * One counter per value of a tag ({@code jobmon_ingest_records_total{result=...}},
 * {@code jobmon_logs_lines_total{outcome=...}}): every value registered at once, so each series exists, at zero,
 * before its first increment (alert rules see it).
 */
public final class TaggedCounters {

    private final Map<String, Counter> counters = new HashMap<>();

    public TaggedCounters(MeterRegistry registry, String name, String tag, String description, String... values) {
        for (String v : values) {
            counters.put(v, Counter.builder(name).tag(tag, v).description(description).register(registry));
        }
    }

    /** Adds {@code amount} to the counter of {@code value}, one of those registered. */
    public void increment(String value, double amount) {
        Counter c = counters.get(value);
        if (c == null) {
            throw new IllegalArgumentException("no counter of " + value + ": " + counters.keySet());
        }
        c.increment(amount);
    }
}
