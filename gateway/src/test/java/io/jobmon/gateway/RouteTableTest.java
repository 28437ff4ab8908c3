package io.jobmon.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jobmon.gateway.routing.RouteTable;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RouteTableTest {

    @ParameterizedTest
    @CsvSource({
            "/api/v1/jobs, job",
            "/api/v1/jobs/stats, job",
            "/api/v1/jobs/statuses, job",
            "/api/v1/jobs/batch-delete, job",
            "/api/v1/jobs/j-1, job",
            "/api/v1/jobs/j-1/timeline, job",
            "/api/v1/jobs/j-1/attempts, job",
            "/api/v1/jobs/j-1/events, events",
            "/api/v1/jobs/j-1/logs, logs",
            "/api/v1/jobs/j-1/logs/stream, logs",
            "/api/v1/jobs/j-1/logs/download, logs",
            "/api/v1/jobs/j-1/logs/pods, logs",
            "/api/v1/jobs/j-1/metrics, metrics",
            "/api/v1/jobs/j-1/metrics/summary, metrics",
            "/api/v1/jobs/j-1/gpus, metrics",
            "/api/v1/nodes/gpu-7/metrics, metrics",
            "/api/v1/nodes/gpu-7/logs, logs",
            "/api/v1/nodes/gpu-7/logs/count, logs",
            "/api/v1/metrics/overview, metrics",
            "/api/v1/write, metrics",
            "/api/v1/alerts, metrics",
            "/api/v1/alerts/silences, metrics",
            "/api/v1/alerts/silences/s-1, metrics",
            "/api/v1/jobs/j-1/alerts, metrics",
            "/api/v1/jobs/j-1/diagnoses, diagnosis",
            "/api/v1/diagnoses/d-1, diagnosis",
            "/api/v1/diagnoses/d-1/feedback, diagnosis",
            "/api/v1/diagnoses/analyze, diagnosis",
            "/api/v1/clusters, job",
            "/api/v1/queues, job",
            "/api/v1/projects, job",
            "/api/v1/tags, job",
            "/api/v1/users, job"})
    void eachPublicPathHasItsOwner(String path, String service) {
        assertEquals(Optional.of(service), RouteTable.serviceFor(path));
    }

    @ParameterizedTest
    @CsvSource({"/api/v1/me", "/api/v1/nope", "/api/v2/jobs", "/api/v1/jobsx", "/api/v1/users/x", "/api/v1/tagsx",
            "/api/v1/alertsx"})
    void pathsNoServiceOwnsStayWithTheGateway(String path) {
        assertEquals(Optional.empty(), RouteTable.serviceFor(path));
    }

    @ParameterizedTest
    @CsvSource({
            "/api/v1/jobs, /api/v1/jobs",
            "/api/v1/jobs/stats, /api/v1/jobs/stats",
            "/api/v1/jobs/statuses, /api/v1/jobs/statuses",
            "/api/v1/jobs/j-1, /api/v1/jobs/{id}",
            "/api/v1/jobs/j-1/, /api/v1/jobs/{id}",
            "/api/v1/jobs/j-1/logs/stream, /api/v1/jobs/{id}/logs/stream",
            "/api/v1/nodes/gpu-7/metrics, /api/v1/nodes/{node}/metrics",
            "/api/v1/diagnoses/analyze, /api/v1/diagnoses/analyze",
            "/api/v1/diagnoses/d-1/feedback, /api/v1/diagnoses/{id}/feedback",
            "/api/v1/alerts, /api/v1/alerts",
            "/api/v1/alerts/silences, /api/v1/alerts/silences",
            "/api/v1/alerts/silences/s-1, /api/v1/alerts/silences/{id}",
            "/api/v1/jobs/j-1/alerts, /api/v1/jobs/{id}/alerts",
            "/api/v1/jobs/j-1/logs/stream/x, /{unmatched}",
            "/api/v1/jobs/j-1/nope, /{unmatched}",
            "/api/v1/nodes/n/metrics/x, /{unmatched}"})
    void aProxiedPathIsTaggedWithItsTemplate(String path, String template) {
        assertEquals(template, io.jobmon.gateway.routing.RouteTemplates.of(path));
    }

    /** Every path of the merged OpenAPI document has its template (the list follows the API). */
    @org.junit.jupiter.api.Test
    void everyDocumentedPathHasATemplate() throws Exception {
        var doc = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(java.nio.file.Path.of("../docs/openapi/jobmon.json").toFile());
        doc.path("paths").fieldNames().forEachRemaining(p -> {
            if (p.startsWith("/api/v1/") && !p.equals("/api/v1/me")) {
                String concrete = p.replaceAll("\\{[^}]+}", "x-1");
                org.junit.jupiter.api.Assertions.assertNotEquals("/{unmatched}",
                        io.jobmon.gateway.routing.RouteTemplates.of(concrete), p);
            }
        });
    }
}
