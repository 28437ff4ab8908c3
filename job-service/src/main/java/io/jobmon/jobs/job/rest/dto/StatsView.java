package io.jobmon.jobs.job.rest.dto;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Counts by status, queue-time percentiles and top failure reasons of the jobs submitted in a range. */
public record StatsView(String scope, Instant from, Instant to, long total, Map<String, Long> byStatus,
        QueueTime queueSeconds, List<Reason> topFailureReasons) {

    /** Over jobs that started; null when none did. */
    public record QueueTime(Double p50, Double p95) {
    }

    public record Reason(String reason, long count) {
    }
}
