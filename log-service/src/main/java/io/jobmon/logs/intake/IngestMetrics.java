package io.jobmon.logs.intake;

import io.jobmon.contracts.metrics.TaggedCounters;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.TimeUnit;

/**
 * The intake's figures on /q/metrics (alert rules depend on these names): {@code jobmon_logs_lines_total{outcome}}
 * (ingested, masked, cut, dead_lettered — records —, unknown_job_dropped, ignored), {@code jobmon_logs_bytes_total}
 * (raw bytes stored) and {@code jobmon_logs_chunk_flush_seconds}.
 */
@ApplicationScoped
public class IngestMetrics {

    private final TaggedCounters lines;
    private final Counter bytes;
    private final Timer flush;

    public IngestMetrics(MeterRegistry registry) {
        lines = new TaggedCounters(registry, "jobmon.logs.lines", "outcome",
                "log lines by outcome (dead_lettered counts records)", "ingested", "masked", "cut", "dead_lettered",
                "unknown_job_dropped", "ignored");
        bytes = Counter.builder("jobmon.logs.bytes").description("raw bytes of the log lines stored").register(registry);
        flush = Timer.builder("jobmon.logs.chunk.flush").description("time to encode and store a flush of open chunks")
                .register(registry);
    }

    void stored(int storedLines, long rawBytes, int maskedLines, int cutLines) {
        lines.increment("ingested", storedLines);
        bytes.increment(rawBytes);
        lines.increment("masked", maskedLines);
        lines.increment("cut", cutLines);
    }

    void flushed(long nanos) {
        flush.record(nanos, TimeUnit.NANOSECONDS);
    }

    void deadLettered(int records) {
        lines.increment("dead_lettered", records);
    }

    void ignored(int n) {
        lines.increment("ignored", n);
    }

    public void unknownJobDropped(long lines) {
        this.lines.increment("unknown_job_dropped", lines);
    }
}
