package io.jobmon.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * metrics-service's samples: in its PostgreSQL schema by default ({@code builtin}, no engine settings, no engine
 * egress), in an existing Prometheus-compatible engine with {@code metrics.storage: prometheus} (query and
 * remote-write URLs and the node label from values, egress to the engine's ports, nothing for the other services).
 */
class MetricsStorageTest {

    static final Path PROMETHEUS_VALUES = Path.of("src/test/resources/values-prometheus.yaml");

    static Deployment metricsService(Rendered r) {
        return r.named(Deployment.class, Rendered.objectName("metrics-service"));
    }

    @Test
    void byDefaultTheSamplesStayInPostgresql() {
        for (Rendered r : Rendered.both()) {
            Deployment d = metricsService(r);
            assertEquals("builtin", EnvCoverageTest.value(r, d, "JOBMON_METRICS_STORAGE").orElseThrow(), r.toString());
            assertEquals(Optional.empty(), EnvCoverageTest.value(r, d, "JOBMON_METRICS_PROMETHEUS_URL"), r.toString());
            assertFalse(ChunkStoreTest.egressPorts(r, "metrics-service").contains(8481), r + ": no egress to an engine");
        }
    }

    @Test
    void withPrometheusMetricsServiceGetsTheEngineAndItsEgress() {
        Rendered r = Rendered.render("on-prem values with samples in VictoriaMetrics", Repo.ONPREM_VALUES,
                PROMETHEUS_VALUES);
        Deployment d = metricsService(r);
        assertEquals("prometheus", EnvCoverageTest.value(r, d, "JOBMON_METRICS_STORAGE").orElseThrow());
        assertEquals("http://vmselect.monitoring.svc:8481/select/0/prometheus",
                EnvCoverageTest.value(r, d, "JOBMON_METRICS_PROMETHEUS_URL").orElseThrow());
        assertEquals("http://vminsert.monitoring.svc:8480/insert/0/prometheus/api/v1/write",
                EnvCoverageTest.value(r, d, "JOBMON_METRICS_PROMETHEUS_REMOTE_WRITE_URL").orElseThrow());
        assertEquals("Hostname", EnvCoverageTest.value(r, d, "JOBMON_METRICS_PROMETHEUS_NODE_LABEL").orElseThrow());
        assertTrue(ChunkStoreTest.egressPorts(r, "metrics-service").containsAll(List.of(8480, 8481, 9090)),
                "egress to vminsert, vmselect and Prometheus");
        for (String other : List.of("job-service", "log-service", "diagnosis-service")) {
            assertFalse(ChunkStoreTest.egressPorts(r, other).contains(8481), other + ": no egress to the engine");
        }
    }

    @Test
    void prometheusWithoutAUrlOrAnUnknownStorageDoesNotRender() throws IOException {
        Path noUrl = Files.createTempFile("values-prom-", ".yaml");
        Files.writeString(noUrl, "metrics:\n  storage: prometheus\n");
        Exception e = assertThrows(Exception.class, () -> Rendered.render("prometheus without url", Repo.ONPREM_VALUES,
                noUrl));
        assertTrue(String.valueOf(e.getMessage()).contains("metrics.prometheus.url is required"), e.getMessage());
        Path unknown = Files.createTempFile("values-storage-", ".yaml");
        Files.writeString(unknown, "metrics:\n  storage: influxdb\n");
        e = assertThrows(Exception.class, () -> Rendered.render("unknown storage", Repo.ONPREM_VALUES, unknown));
        assertTrue(String.valueOf(e.getMessage()).contains("builtin or prometheus"), e.getMessage());
    }
}
