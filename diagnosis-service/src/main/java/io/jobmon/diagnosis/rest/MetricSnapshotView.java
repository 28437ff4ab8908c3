package io.jobmon.diagnosis.rest;

import com.fasterxml.jackson.databind.JsonNode;
import io.jobmon.contracts.events.CloudEvents;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The raw performance snapshot of a diagnosis: the metric series it read, as it read them, each thinned to at most
 * {@code maxPoints} points.
 *
 * @param window the diagnosis' evidence window; series begin earlier when the run before it was read
 * @param items one series per metric and GPU (or node)
 */
@Schema(name = "DiagnosisMetricSnapshot", requiredProperties = {"diagnosisId", "jobId", "window", "maxPoints", "items"})
public record MetricSnapshotView(String diagnosisId, String jobId, DiagnosisView.WindowView window, int maxPoints,
        List<SnapshotSeries> items) {

    /**
     * One series.
     *
     * @param metric metrics-service's name ({@code gpu_util}); {@code name}: dcgm-exporter's, as the engine read it
     * @param labels dcgm-exporter's labels ({@code Hostname}, {@code gpu}, {@code UUID}, {@code pod}, ...)
     * @param points {@code [time, value]}; error counts as running totals, Xid as the code, as the engine read them
     */
    @Schema(name = "DiagnosisSnapshotSeries", requiredProperties = {"metric", "name", "labels", "points"})
    public record SnapshotSeries(String metric, String name, Map<String, String> labels,
            @Schema(description = "[time, value] pairs: an RFC 3339 UTC time to the millisecond and a number")
            List<List<Object>> points) {
    }

    static List<SnapshotSeries> series(JsonNode stored) {
        List<SnapshotSeries> out = new ArrayList<>();
        for (JsonNode s : stored) {
            out.add(CloudEvents.MAPPER.convertValue(s, SnapshotSeries.class));
        }
        return out;
    }
}
