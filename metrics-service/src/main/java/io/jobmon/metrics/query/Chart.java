package io.jobmon.metrics.query;

import org.eclipse.microprofile.openapi.annotations.media.Schema;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Response records of the chart endpoints. */
public final class Chart {

    private Chart() {
    }

    /**
     * One line of a chart: the metric, its unit, the group it stands for, how its series were attributed
     * ({@code labels}, {@code placement} or {@code mixed}; null for a node's own chart), and [time, value] points.
     */
    @Schema(name = "MetricSeries")
    public record Series(String metric, String unit, Map<String, String> group, String attribution,
            @JsonSerialize(using = PointsJson.class) List<Object[]> points) {
    }

    /** How one GPU's or node's series were taken for the job, and for which time. */
    @Schema(name = "MetricAttribution")
    public record Attributed(String node, String gpu, String pod, String method, Instant from, Instant to) {
    }

    /** A chart: range, the step and the stored resolution it was read from, the lines. */
    @Schema(name = "MetricChart")
    public record Response(String jobId, String node, Instant from, Instant to, long stepSeconds, String resolution,
            String aggregation, String groupBy, List<Series> series, List<Attributed> attribution,
            List<Attribution.Unattributed> unattributed) {
    }
}
