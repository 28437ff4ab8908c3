package io.jobmon.logs.intake;

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

    private final Counter ingested;
    private final Counter masked;
    private final Counter cut;
    private final Counter deadLettered;
    private final Counter unknownJobDropped;
    private final Counter ignored;
    private final Counter bytes;
    private final Timer flush;

    public IngestMetrics(MeterRegistry registry) {
        ingested = lines(registry, "ingested");
        masked = lines(registry, "masked");
        cut = lines(registry, "cut");
        deadLettered = lines(registry, "dead_lettered");
        unknownJobDropped = lines(registry, "unknown_job_dropped");
        ignored = lines(registry, "ignored");
        bytes = Counter.builder("jobmon.logs.bytes").description("raw bytes of the log lines stored").register(registry);
        flush = Timer.builder("jobmon.logs.chunk.flush").description("time to encode and store a flush of open chunks")
                .register(registry);
    }

    private static Counter lines(MeterRegistry registry, String outcome) {
        return Counter.builder("jobmon.logs.lines").tag("outcome", outcome)
                .description("log lines by outcome (dead_lettered counts records)").register(registry);
    }

    void stored(int lines, long rawBytes, int maskedLines, int cutLines) {
        ingested.increment(lines);
        bytes.increment(rawBytes);
        masked.increment(maskedLines);
        cut.increment(cutLines);
    }

    void flushed(long nanos) {
        flush.record(nanos, TimeUnit.NANOSECONDS);
    }

    void deadLettered(int records) {
        deadLettered.increment(records);
    }

    void ignored(int n) {
        ignored.increment(n);
    }

    public void unknownJobDropped(long lines) {
        unknownJobDropped.increment(lines);
    }
}
