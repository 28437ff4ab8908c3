package io.jobmon.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * log-service's chunk bodies: in PostgreSQL by default (no store settings, no store egress), in an existing
 * S3-compatible store with {@code logs.chunkStore: s3} (endpoint, bucket, path-style from values, the keys from an
 * existing Secret, egress to the store's ports, nothing for the other services).
 */
class ChunkStoreTest {

    static final Path S3_VALUES = Path.of("src/test/resources/values-s3.yaml");

    static Rendered s3() {
        return Rendered.render("on-prem values with chunk bodies in s3", Repo.ONPREM_VALUES, S3_VALUES);
    }

    static Deployment logService(Rendered r) {
        return r.named(Deployment.class, Rendered.objectName("log-service"));
    }

    static List<Integer> egressPorts(Rendered r, String service) {
        NetworkPolicy p = r.all(NetworkPolicy.class).stream()
                .filter(n -> n.getMetadata().getName().equals(Rendered.objectName(service))).findFirst().orElseThrow();
        return p.getSpec().getEgress().stream().flatMap(e -> Optional.ofNullable(e.getPorts()).orElse(List.of()).stream())
                .map(NetworkPolicyPort::getPort).filter(port -> port != null && port.getIntVal() != null)
                .map(port -> port.getIntVal()).toList();
    }

    @Test
    void byDefaultTheBodiesStayInPostgresql() {
        for (Rendered r : Rendered.both()) {
            Deployment d = logService(r);
            for (String v : List.of("JOBMON_LOGS_CHUNK_STORE", "JOBMON_LOGS_S3_ENDPOINT", "JOBMON_LOGS_S3_ACCESS_KEY",
                    "JOBMON_LOGS_S3_SECRET_KEY")) {
                assertEquals(Optional.empty(), EnvCoverageTest.value(r, d, v), r + ": " + v);
            }
            assertFalse(egressPorts(r, "log-service").contains(7480), r + ": no egress to an object store");
        }
    }

    @Test
    void withS3LogServiceGetsTheStoreAndItsKeysFromTheExistingSecret() {
        Rendered r = s3();
        Deployment d = logService(r);
        assertEquals("s3", EnvCoverageTest.value(r, d, "JOBMON_LOGS_CHUNK_STORE").orElseThrow());
        assertEquals("http://minio.minio.svc:9000", EnvCoverageTest.value(r, d, "JOBMON_LOGS_S3_ENDPOINT").orElseThrow());
        assertEquals("platform-logs", EnvCoverageTest.value(r, d, "JOBMON_LOGS_S3_BUCKET").orElseThrow());
        assertEquals("true", EnvCoverageTest.value(r, d, "JOBMON_LOGS_S3_PATH_STYLE").orElseThrow());
        assertEquals("us-east-1", EnvCoverageTest.value(r, d, "JOBMON_LOGS_S3_REGION").orElseThrow());
        assertEquals("secret minio-jobmon/user", EnvCoverageTest.value(r, d, "JOBMON_LOGS_S3_ACCESS_KEY").orElseThrow());
        assertEquals("secret minio-jobmon/password", EnvCoverageTest.value(r, d, "JOBMON_LOGS_S3_SECRET_KEY").orElseThrow());
        assertTrue(egressPorts(r, "log-service").containsAll(List.of(9000, 7480)), "egress to MinIO / Ceph RGW");
        for (String other : List.of("job-service", "metrics-service", "diagnosis-service")) {
            Deployment o = r.named(Deployment.class, Rendered.objectName(other));
            assertEquals(Optional.empty(), EnvCoverageTest.value(r, o, "JOBMON_LOGS_S3_SECRET_KEY"), other);
            assertFalse(egressPorts(r, other).contains(7480), other + ": no egress to the object store");
        }
    }

    @Test
    void s3WithoutAnEndpointOrWithAnUnknownStoreDoesNotRender() throws IOException {
        Path noEndpoint = Files.createTempFile("values-s3-", ".yaml");
        Files.writeString(noEndpoint, "logs:\n  chunkStore: s3\n");
        Exception e = assertThrows(Exception.class, () -> Rendered.render("s3 without endpoint", Repo.ONPREM_VALUES, noEndpoint));
        assertTrue(String.valueOf(e.getMessage()).contains("logs.s3.endpoint is required"), e.getMessage());
        Path unknown = Files.createTempFile("values-store-", ".yaml");
        Files.writeString(unknown, "logs:\n  chunkStore: gcs\n");
        e = assertThrows(Exception.class, () -> Rendered.render("unknown store", Repo.ONPREM_VALUES, unknown));
        assertTrue(String.valueOf(e.getMessage()).contains("postgres or s3"), e.getMessage());
    }
}
