package io.jobmon.jobs.job.rest.dto;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** Counts by status, queue-time percentiles and top failure reasons of the jobs submitted in a range. */
public record StatsView(String scope, Instant from, Instant to, long total, Map<String, Long> byStatus,
        QueueTime queueSeconds, List<Reason> topFailureReasons) {

    /** Over jobs that started; null when none did. */
    public record QueueTime(Double p50, Double p95) {
    }

    /**
     * A failure reason and how many failed jobs have it.
     *
     * @param reason as a job's {@code failureReason}: a Kubernetes or jobmon reason, or a diagnosis category
     * @param code its stable code (a {@code reasonCode}, or the category); absent for a reason jobmon does not know
     * @param text the reason in the reader's language; absent for a reason jobmon does not know
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(requiredProperties = {"reason", "count"})
    public record Reason(String reason, String code, String text, long count) {
    }
}
