package io.jobmon.diagnosis.task;

import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.jobmon.diagnosis.config.DiagnosisConfig;
import io.jobmon.diagnosis.evidence.EvidenceGatherer;
import io.jobmon.diagnosis.evidence.Gathered;
import io.jobmon.diagnosis.support.EvidenceServer;
import io.jobmon.diagnosis.support.Jobs;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.jobmon.testsupport.Tokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A job whose only hardware evidence is an Xid and a remapped row of its GPU that dcgm-exporter did not label with
 * the pod: metrics-service attributes them to the job by the GPU its pod held ({@code attribution: gpu}); the task asks
 * for them among its default metrics and they reach the bundle under dcgm-exporter's names and labels, as in a bundle
 * given to {@code /analyze}. metrics-service's answer is the one its GpuAttributionTest recorded.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
@WithTestResource(EvidenceServer.class)
class GpuEvidenceTest {

    static final Instant FROM = Instant.parse("2025-07-01T08:00:00Z");
    static final Instant TO = Instant.parse("2025-07-01T08:10:00Z");

    @Inject
    EvidenceGatherer gatherer;

    @Inject
    DiagnosisConfig config;

    static String recorded(String job, String node) throws IOException {
        try (InputStream in = GpuEvidenceTest.class.getResourceAsStream("/recorded/metrics-xid-by-gpu.json")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("{job}", job).replace("{node}", node);
        }
    }

    @Test
    void anXidOfTheJobsGpuAttributedByGpuIdentityReachesTheBundleAsDcgmExportersSeries() throws IOException {
        String job = Jobs.newId("xidgpu");
        String node = "gpu-node-21";
        WireMockServer wm = EvidenceServer.server();
        String base = "/api/v1/jobs/" + job;
        wm.stubFor(get(urlPathEqualTo(base)).willReturn(okJson("{\"id\":\"" + job + "\",\"name\":\"llm-pt\","
                + "\"status\":\"FAILED\",\"reason\":\"Error\",\"exitCode\":1,\"gpu\":\"A100\",\"gpuCount\":1,"
                + "\"submittedAt\":\"" + FROM.minusSeconds(60) + "\",\"startedAt\":\"" + FROM + "\",\"finishedAt\":\""
                + TO + "\"}")));
        wm.stubFor(get(urlPathEqualTo(base + "/attempts")).willReturn(okJson("{\"rootId\":\"" + job + "\","
                + "\"attempts\":[],\"commands\":[]}")));
        for (String source : List.of("/pods", "/events", "/logs")) {
            wm.stubFor(get(urlPathEqualTo(base + source)).willReturn(okJson("{\"items\":[],\"nextCursor\":null}")));
        }
        wm.stubFor(get(urlPathEqualTo(base + "/metrics")).willReturn(okJson(recorded(job, node))));

        DiagnosisTask task = new DiagnosisTask("d-" + job, job, DiagnosisTask.Trigger.USER, DiagnosisTask.Status.RUNNING,
                "alice", FROM, TO, List.of(), null, "en", null, Instant.now(), Instant.now(), null, 0, null, null, null,
                null, null, null, null, null, null);
        Gathered got = gatherer.gather(task, Optional.of("Bearer " + Tokens.alice()), null);

        List<LoggedRequest> asked = wm.findAll(getRequestedFor(urlPathEqualTo(base + "/metrics")));
        assertTrue(!asked.isEmpty());
        List<String> metrics = asked.get(0).queryParameter("metric").values();
        assertEquals(config.evidence().defaultMetrics(), metrics);
        for (String kind : List.of("xid", "ecc_dbe", "remapped_rows_uncorrectable", "nvlink_crc_flit_errors",
                "pcie_replays", "throttle_reasons", "gpu_temp", "gpu_power", "sm_clock")) {
            assertTrue(metrics.contains(kind), kind + " is read by every diagnosis: " + metrics);
        }
        assertEquals("gpu", asked.get(0).queryParameter("groupBy").firstValue());

        JsonNode xid = series(got, "DCGM_FI_DEV_XID_ERRORS");
        assertNotNull(xid, got.bundle().path("metrics").toPrettyString());
        assertEquals(Map.of("code", "79", "Hostname", node, "gpu", "0", "UUID", "GPU-" + node + "-0",
                "pci_bus_id", "00000000:00:00.0", "pod", job + "-0"), labels(xid));
        assertEquals(1, xid.path("samples").size());
        assertEquals(79.0, xid.path("samples").get(0).get(1).asDouble(), "the Xid code, as dcgm-exporter's last Xid");
        JsonNode rows = series(got, "DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS");
        assertNotNull(rows);
        assertEquals(job + "-0", rows.path("labels").path("pod").asText());
        assertEquals(1.0, rows.path("samples").get(rows.path("samples").size() - 1).get(1).asDouble());
        JsonNode util = series(got, "DCGM_FI_DEV_GPU_UTIL");
        assertEquals("GPU-" + node + "-0", util.path("labels").path("UUID").asText());
    }

    static JsonNode series(Gathered got, String name) {
        for (JsonNode m : got.bundle().path("metrics")) {
            if (name.equals(m.path("name").asText())) {
                return m;
            }
        }
        return null;
    }

    static Map<String, String> labels(JsonNode m) {
        Map<String, String> out = new java.util.TreeMap<>();
        m.path("labels").fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }
}
