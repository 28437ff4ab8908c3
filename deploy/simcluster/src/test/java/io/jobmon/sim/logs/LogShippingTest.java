package io.jobmon.sim.logs;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jobmon.sim.FreePorts;
import io.jobmon.sim.JobServiceWorkload;
import io.jobmon.sim.SimCluster;
import io.jobmon.sim.SimConfig;
import io.jobmon.testsupport.EmbeddedKafka;
import io.jobmon.testsupport.KafkaTestClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The log feed on a real Kafka broker: container lines and node journal lines as Fluent Bit puts them on the topic. */
class LogShippingTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void containerAndJournalLinesArriveOnTheTopicAsFluentBitRecords(@TempDir Path state) throws Exception {
        String topic = "jobmon.logs.lines";
        SimConfig config = SimConfig.parse(new String[] {"--api-port", "0", "--admin-port", "0", "--exporter-base-port",
                String.valueOf(FreePorts.base(2)), "--pools", "A800:1x8", "--time-scale", "30", "--run-time", "60s",
                "--kafka-bootstrap", EmbeddedKafka.bootstrapServers(), "--state-dir", state.toString()}, Map.of());
        String run = UUID.randomUUID().toString().substring(0, 8);
        String healthy = "job-" + run + "-ok";
        String oom = "job-" + run + "-oom";
        try (SimCluster cluster = SimCluster.start(config)) {
            var client = cluster.client();
            client.batch().v1().jobs().inNamespace("jobmon-jobs").resource(JobServiceWorkload.build(healthy, "jobmon-jobs", 1, 4,
                    Map.of())).create();
            client.batch().v1().jobs().inNamespace("jobmon-jobs").resource(JobServiceWorkload.build(oom, "jobmon-jobs", 1, 4,
                    Map.of("sim.jobmon.io/scenario", "oom"))).create();
            await().atMost(120, TimeUnit.SECONDS).until(() -> client.pods().inNamespace("jobmon-jobs")
                    .withLabel("jobmon.io/job-id", oom).list().getItems().stream()
                    .anyMatch(p -> "Failed".equals(p.getStatus().getPhase())));
            String pod = client.pods().inNamespace("jobmon-jobs").withLabel("jobmon.io/job-id", healthy).list().getItems()
                    .get(0).getMetadata().getName();

            var lines = KafkaTestClient.await(topic, r -> ("sim/jobmon-jobs/" + pod + "/main").equals(r.key())
                    && r.value().contains("it]"), 1, Duration.ofSeconds(60));
            assertFalse(lines.isEmpty(), "a progress line of " + pod);
            JsonNode record = JSON.readTree(lines.get(0).value());
            assertTrue(record.get("@timestamp").isNumber());
            assertTrue(record.get("time").asText().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z"));
            assertEquals("stderr", record.get("stream").asText());
            assertEquals("F", record.get("_p").asText());
            assertEquals(pod, record.at("/kubernetes/pod_name").asText());
            assertEquals("jobmon-jobs", record.at("/kubernetes/namespace_name").asText());
            assertEquals(healthy, record.at("/kubernetes/labels/jobmon.io~1job-id").asText());
            assertEquals("main", record.at("/kubernetes/container_name").asText());
            assertEquals("gpu-a800-01", record.at("/kubernetes/host").asText());
            assertTrue(record.at("/kubernetes/docker_id").asText().matches("[0-9a-f]{64}"));
            assertEquals("sim", record.get("cluster").asText());

            var journal = KafkaTestClient.await(topic, r -> "sim/gpu-a800-01".equals(r.key())
                    && r.value().contains("Memory cgroup out of memory: Killed process"), 1, Duration.ofSeconds(60));
            assertFalse(journal.isEmpty(), "the OOM killer's kernel line");
            JsonNode k = JSON.readTree(journal.get(0).value());
            assertEquals("kernel", k.get("_TRANSPORT").asText());
            assertEquals("gpu-a800-01", k.get("_HOSTNAME").asText());
        }
    }
}
