package io.jobmon.metrics.ingest;

import io.jobmon.contracts.metrics.TaggedCounters;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The intake and store figures on /q/metrics: {@code jobmon_metrics_samples_total{source}} (scrape |
 * remote_write, counted where they enter), {@code jobmon_metrics_ingest_lag_seconds} (from a record's arrival on
 * Kafka to its samples being stored, at the last batch), stored and invalid record counts, batch times.
 */
@ApplicationScoped
@Startup // its gauges exist from the start, before the first batch (a rule on the lag must not see it absent)
public class IngestMetrics {

    private final TaggedCounters samples;
    private final Counter stored;
    private final Counter replayed;
    private final Counter invalid;
    private final Timer batch;
    private final AtomicLong lagMs = new AtomicLong();

    public IngestMetrics(MeterRegistry registry) {
        samples = new TaggedCounters(registry, "jobmon.metrics.samples", "source",
                "samples taken in by this replica, by intake path", "scrape", "remote_write");
        stored = Counter.builder("jobmon.metrics.stored.samples").description("samples stored by this replica's consumer")
                .register(registry);
        replayed = Counter.builder("jobmon.metrics.replayed.records")
                .description("records read again after a crash or rebalance and skipped (already stored)").register(registry);
        invalid = Counter.builder("jobmon.metrics.invalid.records").description("records sent to the DLQ")
                .register(registry);
        batch = Timer.builder("jobmon.metrics.batch.duration").description("time to store one polled batch")
                .register(registry);
        Gauge.builder("jobmon.metrics.ingest.lag.seconds", lagMs, v -> v.get() / 1000.0)
                .description("seconds from a record's arrival on jobmon.metrics.samples to its samples being stored (last batch)")
                .register(registry);
    }

    public void scraped(int n) {
        samples.increment("scrape", n);
    }

    public void remoteWritten(int n) {
        samples.increment("remote_write", n);
    }

    void batch(IngestService.Result r, int invalidRecords, long nanos) {
        stored.increment(r.samples());
        replayed.increment(r.replayed());
        invalid.increment(invalidRecords);
        batch.record(nanos, TimeUnit.NANOSECONDS);
        if (r.newestRecordMs() > 0) {
            lagMs.set(Math.max(0, System.currentTimeMillis() - r.newestRecordMs()));
        }
    }
}
