package io.jobmon.sim.replay;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jobmon.sim.FreePorts;
import io.jobmon.sim.RecordingLogSink;
import io.jobmon.sim.SimCluster;
import io.jobmon.sim.SimConfig;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Each public diagnosis sample played onto the sim: its objects appear in the API, its lines and series are produced. */
class BundlePlayerTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final RecordingLogSink LOGS = new RecordingLogSink();

    @TempDir
    static Path state;
    private static SimCluster cluster;
    private static KubernetesClient client;

    @BeforeAll
    static void start() {
        SimConfig config = SimConfig.parse(new String[] {"--api-port", "0", "--admin-port", "0", "--exporter-base-port",
                String.valueOf(FreePorts.base(80)), "--pools", "A800:1x8", "--state-dir", state.toString()}, Map.of());
        cluster = SimCluster.start(config, LOGS);
        client = cluster.client();
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    @org.junit.jupiter.api.Test
    void jobServicesJobLabelledReplayGetsNoPodsFromTheSimAndTheAdminApiPlaysTheBundleOntoIt() throws Exception {
        String ns = "jobmon-jobs";
        client.batch().v1().jobs().inNamespace(ns).resource(io.jobmon.sim.JobServiceWorkload.build("job-replay-1", ns, 1, 8,
                Map.of("sim.jobmon.io/scenario", "replay"))).create();
        Thread.sleep(500);
        assertTrue(client.pods().inNamespace(ns).withLabel("jobmon.io/job-id", "job-replay-1").list().getItems().isEmpty());
        byte[] bundle = BundlePlayerTest.class.getResourceAsStream("/diagnosis-samples/008-gpu_oom.json").readAllBytes();
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + cluster.adminPort() + "/replay?job=job-replay-1&namespace=" + ns))
                .POST(HttpRequest.BodyPublishers.ofByteArray(bundle)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        JsonNode result = JSON.readTree(r.body());
        assertEquals("[\"llama-sft-worker-0\"]", result.get("pods").toString());
        Pod pod = client.pods().inNamespace(ns).withName("llama-sft-worker-0").get();
        var job = client.batch().v1().jobs().inNamespace(ns).withName("job-replay-1").get();
        assertEquals(job.getMetadata().getUid(), pod.getMetadata().getOwnerReferences().get(0).getUid());
        assertTrue(JSON.readTree(HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + cluster.adminPort() + "/replay/pending")).build(), HttpResponse.BodyHandlers.ofString()).body())
                .get("pendingSamples").asInt() > 0);
    }

    @org.junit.jupiter.api.Test
    void aGpuSeriesOfAReplayedPodNamesTheReplaysNamespaceAsDcgmExporterWould() throws Exception {
        JsonNode bundle = JSON.readTree("""
                {"job": {"id": "job-x", "name": "ns-test"},
                 "pods": [{"name": "ns-test-0", "node": "gpu-ns-test", "phase": "Running",
                           "containers": [{"name": "trainer", "state": "running"}]}],
                 "metrics": [{"name": "DCGM_FI_DEV_GPU_UTIL", "labels": {"Hostname": "gpu-ns-test", "gpu": "0",
                              "namespace": "team-llm", "pod": "ns-test-0", "container": "trainer"},
                              "samples": [["2026-07-13T10:00:00Z", 97.0]]}],
                 "window": {"from": "2026-07-13T09:45:00Z", "to": "2026-07-13T10:15:00Z"}}""");
        cluster.player().play(bundle, "job-ns-test", "jobmon-jobs");
        int port = cluster.exporterPorts().get("gpu-ns-test").dcgm();
        String body = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
        assertTrue(body.contains("container=\"trainer\",namespace=\"jobmon-jobs\",pod=\"ns-test-0\"} 97"), body);
        // A Prometheus finds the replay node's exporters by the admin API's HTTP service discovery.
        for (String family : new String[] {"dcgm-exporter", "node-exporter"}) {
            JsonNode groups = JSON.readTree(HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                    "http://127.0.0.1:" + cluster.adminPort() + "/sd/" + family)).build(),
                    HttpResponse.BodyHandlers.ofString()).body());
            int expected = family.equals("dcgm-exporter") ? port : cluster.exporterPorts().get("gpu-ns-test").node();
            boolean found = false;
            for (JsonNode g : groups) {
                found |= g.at("/labels/node").asText().equals("gpu-ns-test")
                        && g.at("/targets/0").asText().endsWith(":" + expected);
            }
            assertTrue(found, family + ": " + groups);
        }
    }

    @org.junit.jupiter.api.Test
    void aBundleReplayedAgainInTheSameNamespaceGetsPodsOfItsOwn() throws Exception {
        JsonNode bundle = load("014");
        cluster.player().play(bundle, "job-again-1", "again");
        BundlePlayer.Result second = cluster.player().play(bundle, "job-again-2", "again");
        assertEquals(List.of("vicuna-7b-ft-0-again2"), second.pods());
        Pod first = client.pods().inNamespace("again").withName("vicuna-7b-ft-0").get();
        Pod renamed = client.pods().inNamespace("again").withName("vicuna-7b-ft-0-again2").get();
        assertEquals("job-again-1", first.getMetadata().getLabels().get("jobmon.io/job-id"));
        assertEquals("job-again-2", renamed.getMetadata().getLabels().get("jobmon.io/job-id"));
    }

    @org.junit.jupiter.api.Test
    void aBodyThatIsNotABundleIsABadRequestWithAProblemBody() throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + cluster.adminPort() + "/replay?job=x")).POST(HttpRequest.BodyPublishers.ofString("{not json")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(400, r.statusCode());
        assertEquals("application/problem+json", r.headers().firstValue("Content-Type").orElse(""));
        assertTrue(r.body().contains("not a JSON evidence bundle"), r.body());
        HttpResponse<String> noJob = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + cluster.adminPort() + "/replay")).POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(400, noJob.statusCode());
    }

    static Stream<String> samples() {
        List<String> names = new ArrayList<>();
        for (int i = 1; i <= 22; i++) {
            names.add(String.format("%03d", i));
        }
        return names.stream();
    }

    private static JsonNode load(String number) throws IOException {
        String[] files = {"quota_exceeded", "insufficient_resources", "scheduling_constraint", "image_pull_failed",
                "volume_mount_failed", "start_command_error", "container_oom", "gpu_oom", "nccl_communication_error",
                "gpu_hardware_fault", "node_failure", "preempted", "evicted", "dependency_missing", "data_path_error",
                "user_code_error", "training_hang", "gpu_thermal_throttling", "data_loading_bottleneck",
                "training_slowdown", "healthy", "unknown"};
        String file = "/diagnosis-samples/" + number + "-" + files[Integer.parseInt(number) - 1] + ".json";
        try (InputStream in = BundlePlayerTest.class.getResourceAsStream(file)) {
            assertNotNull(in, file);
            return JSON.readTree(in);
        }
    }

    @ParameterizedTest(name = "sample {0}")
    @MethodSource("samples")
    void theBundlesJobPodsEventsLinesAndSeriesAppear(String number) throws Exception {
        JsonNode bundle = load(number);
        String jobId = "replay-" + number;
        String ns = "replay-" + number;
        int linesBefore = LOGS.lines().size();
        BundlePlayer.Result r = cluster.player().play(bundle, jobId, ns);

        var job = client.batch().v1().jobs().inNamespace(ns).withName(jobId).get();
        assertNotNull(job);
        assertEquals(jobId, job.getMetadata().getLabels().get("jobmon.io/job-id"));

        for (JsonNode p : bundle.path("pods")) {
            Pod pod = client.pods().inNamespace(ns).withName(p.path("name").asText()).get();
            assertNotNull(pod, p.path("name").asText());
            assertEquals(jobId, pod.getMetadata().getLabels().get("jobmon.io/job-id"));
            assertEquals(p.path("phase").asText(), pod.getStatus().getPhase());
            String node = p.path("node").asText("");
            assertEquals(node.isEmpty() ? null : node, pod.getSpec().getNodeName());
            for (int i = 0; i < p.path("containers").size(); i++) {
                JsonNode c = p.path("containers").get(i);
                var cs = pod.getStatus().getContainerStatuses().get(i);
                assertEquals(c.path("name").asText(), cs.getName());
                assertEquals(c.path("restartCount").asInt(), cs.getRestartCount());
                switch (c.path("state").asText()) {
                    case "terminated" -> {
                        assertEquals(c.path("exitCode").asInt(), cs.getState().getTerminated().getExitCode());
                        assertEquals(c.path("reason").asText(), cs.getState().getTerminated().getReason());
                    }
                    case "waiting" -> assertEquals(c.path("reason").asText(), cs.getState().getWaiting().getReason());
                    default -> assertNotNull(cs.getState().getRunning());
                }
            }
        }

        List<Event> events = client.v1().events().inAnyNamespace().list().getItems().stream()
                .filter(e -> e.getMetadata().getAnnotations() != null
                        && jobId.equals(e.getMetadata().getAnnotations().get("sim.jobmon.io/replay")))
                .toList();
        assertEquals(bundle.path("events").size(), events.size());
        assertEquals(bundle.path("events").size(), r.events());
        for (JsonNode e : bundle.path("events")) {
            String object = e.path("object").asText();
            assertTrue(events.stream().anyMatch(x -> e.path("message").asText().equals(x.getMessage())
                    && e.path("reason").asText().equals(x.getReason())
                    && (object.startsWith("Pod/") || object.startsWith("Node/")
                            ? object.equals(x.getInvolvedObject().getKind() + "/" + x.getInvolvedObject().getName())
                            : "Job".equals(x.getInvolvedObject().getKind()))), object + " " + e.path("reason").asText());
        }

        List<RecordingLogSink.Line> lines = LOGS.lines().subList(linesBefore, LOGS.lines().size());
        assertEquals(bundle.path("logs").size(), lines.size());
        assertEquals(bundle.path("logs").size(), r.logLines());
        for (JsonNode l : bundle.path("logs")) {
            String text = l.path("line").asText();
            if ("user".equals(l.path("stream").asText())) {
                assertTrue(lines.stream().anyMatch(x -> l.path("pod").asText().equals(x.pod()) && text.equals(x.text())), text);
            } else {
                assertTrue(lines.stream().anyMatch(x -> text.endsWith(x.text())), text);
            }
        }

        int samples = 0;
        for (JsonNode m : bundle.path("metrics")) {
            samples += m.path("samples").size();
        }
        assertEquals(bundle.path("metrics").size(), r.series());
        assertEquals(samples, r.samples());
        if (samples > 0) {
            JsonNode first = bundle.path("metrics").get(0);
            JsonNode labels = first.path("labels");
            String host = labels.has("node") ? labels.path("node").asText() : labels.has("Hostname")
                    ? labels.path("Hostname").asText() : labels.path("instance").asText().replaceAll(":\\d+$", "");
            var ports = cluster.exporterPorts().get(host);
            assertNotNull(ports, "exporters of " + host);
            int port = first.path("name").asText().startsWith("DCGM_") ? ports.dcgm() : ports.node();
            String path = first.path("name").asText().startsWith("container_") ? "/metrics/cadvisor" : "/metrics";
            String body = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                    + path)).build(), HttpResponse.BodyHandlers.ofString()).body();
            long firstAt = Instant.parse(first.path("samples").get(0).get(0).asText()).plus(r.shift()).toEpochMilli();
            assertTrue(body.contains(first.path("name").asText() + "{") && body.contains(" " + firstAt + "\n"),
                    "the first sample with its timestamp: " + body.substring(0, Math.min(400, body.length())));
        }
        Instant end = bundle.path("window").has("to") ? Instant.parse(bundle.path("window").path("to").asText()) : null;
        if (end != null) {
            assertTrue(Duration.between(end.plus(r.shift()), Instant.now()).abs().compareTo(Duration.ofMinutes(1)) < 0,
                    "shifted to end now");
        }
        await().atMost(30, TimeUnit.SECONDS).until(() -> cluster.sim().kube().job(ns + "/" + jobId).isPresent());
        assertTrue(client.pods().inNamespace(ns).list().getItems().size() == bundle.path("pods").size(),
                "the sim's controllers leave replayed pods alone");
    }
}
