package io.jobmon.jobs.job.model;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Aggregates over the jobs of a scope submitted in [from, to): counts by status, queue-time percentiles (null when
 * no job started) and the most frequent failure reasons (a Kubernetes or jobmon reason, or a diagnosis category).
 */
public record JobStats(String scope, Instant from, Instant to, long total, Map<String, Long> byStatus,
        Double queueP50, Double queueP95, List<ReasonCount> topFailureReasons) {

    public record ReasonCount(String reason, long count) {
    }
}
