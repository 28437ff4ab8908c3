package io.jobmon.e2e;

import static io.jobmon.e2e.SimJobs.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.jobmon.sim.stack.StackClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The stack on the engines a large platform runs it on: {@code ./jobmon up --metrics-storage prometheus --chunk-store
 * s3}. metrics-service keeps no samples and answers from the local Prometheus (ADR 0036), log-service keeps its chunk
 * bodies in the local S3 server (ADR 0038); a sim job's charts and logs read through the gateway as on the builtin
 * stores.
 */
@Order(4)
class EnginesIT {

    @RegisterExtension
    static final SharedStack.Use STACK = SharedStack.use(Map.of("JOBMON_METRICS_STORAGE", "prometheus",
            "JOBMON_CHUNK_STORE", "s3"));

    private static LocalStack stack;
    private static StackClient client;
    private static SimJobs jobs;

    @BeforeAll
    static void up() {
        stack = STACK.get();
        jobs = new SimJobs(stack);
        client = jobs.client();
    }

    @Test
    void aSimJobsChartsComeFromPrometheusAndItsLogsFromTheObjectStore() {
        String job = jobs.submit("carol", "resnet-engines", null, 1, 2, "A800");
        jobs.await("carol", job, j -> "RUNNING".equals(j.path("status").asText()), Duration.ofMinutes(3));
        awaitTrue("torchrun's lines through log-service", () -> client.get("carol", "/api/v1/jobs/" + job
                + "/logs?limit=500").require("logs").path("items").findValuesAsText("line").stream()
                .anyMatch(l -> l.contains("torch.distributed.run") || l.contains("torch/distributed/run.py")),
                Duration.ofMinutes(2));
        awaitTrue("GPU utilisation above 50 % through metrics-service", () -> client.get("carol", "/api/v1/jobs/" + job
                + "/metrics?metric=gpu_util").require("chart").findValues("points").stream()
                .anyMatch(points -> {
                    for (JsonNode p : points) {
                        if (p.get(1).asDouble() > 50) {
                            return true;
                        }
                    }
                    return false;
                }), Duration.ofMinutes(2));

        // The samples are the engine's: jobmon forwarded its scrapes of the sim's dcgm-exporters to Prometheus,
        // which does not scrape them itself in this mode.
        String query = URLEncoder.encode("count(DCGM_FI_DEV_GPU_UTIL{pod=~\"" + job + "-.*\"})", StandardCharsets.UTF_8);
        JsonNode engine = Http.json(Http.get(stack.prometheus() + "/api/v1/query?query=" + query, null));
        assertTrue(engine.at("/data/result/0/value/1").asInt() >= 2, "the job's GPUs in Prometheus: " + engine);

        // The bodies are objects: log-service's flushed chunks are files of the local S3 server's store.
        awaitTrue("chunk bodies in the object store", () -> objects(stack.stateDir.resolve("s3")) > 0,
                Duration.ofMinutes(2));
        client.post("carol", "/api/v1/jobs/" + job + "/stop", Map.of());
    }

    private static long objects(Path dir) {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
