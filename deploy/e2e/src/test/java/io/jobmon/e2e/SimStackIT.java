package io.jobmon.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jobmon.sim.stack.Replayer;
import io.jobmon.sim.stack.StackClient;
import io.jobmon.sim.stack.StackOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The sim cluster {@code sim} of {@code ./jobmon up} through the real paths: jobs submitted through the gateway with
 * Keycloak tokens, created on the sim's Kubernetes API by job-service's fabric8 code, watched by event-ingest, scraped
 * by metrics-service, their lines on Kafka in Fluent Bit's form; and every public diagnosis sample replayed through
 * that intake, diagnosed as {@code /api/v1/diagnoses/analyze} diagnoses the bundle itself. The sim runs healthy jobs
 * for {@code jobmon.e2e.sim-run-time} (2 min).
 */
class SimStackIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> SAMPLES = List.of("001-quota_exceeded", "002-insufficient_resources",
            "003-scheduling_constraint", "004-image_pull_failed", "005-volume_mount_failed", "006-start_command_error",
            "007-container_oom", "008-gpu_oom", "009-nccl_communication_error", "010-gpu_hardware_fault",
            "011-node_failure", "012-preempted", "013-evicted", "014-dependency_missing", "015-data_path_error",
            "016-user_code_error", "017-training_hang", "018-gpu_thermal_throttling", "019-data_loading_bottleneck",
            "020-training_slowdown", "021-healthy", "022-unknown");

    private static LocalStack stack;
    private static StackClient client;

    @BeforeAll
    static void up() {
        stack = LocalStack.fromSystemProperties();
        stack.requireFreePorts();
        assertEquals(0, stack.jobmon(Duration.ofMinutes(12), "up"), "./jobmon up failed: see its output above");
        client = new StackClient(new StackOptions(stack.gateway(), stack.issuer(), "jobmon-ui", stack.simAdmin(),
                stack.simApi(), "sim", "jobmon-jobs"));
    }

    @AfterAll
    static void down() {
        if (stack != null) {
            stack.downAndCheck();
        }
    }

    @Test
    void aJobThatDoesNotFitWaitsWithTheSchedulersReasonAndRunsOnceAStoppedJobsPodsAreGone() {
        // Four 8-GPU A800 pods take every GPU of the sim's four A800 nodes (its two H100 nodes do not take A800 jobs);
        // the job hangs until stopped.
        String filler = submit("alice", "cluster-filler", "hang", 4, 8, "A800");
        await("alice", filler, j -> "RUNNING".equals(j.path("status").asText()), Duration.ofMinutes(3));
        List<JsonNode> placed = simPods(filler);
        assertEquals(4, placed.size());
        assertEquals(4, placed.stream().map(p -> p.at("/spec/nodeName").asText()).filter(n -> n.startsWith("gpu-a800"))
                .distinct().count(), placed.toString());

        String waiting = submit("bob", "gpu-waiter", null, 1, 8, "A800");
        JsonNode queued = await("bob", waiting, j -> "FailedScheduling".equals(j.path("reason").asText()),
                Duration.ofMinutes(2));
        assertTrue(List.of("QUEUED", "PENDING").contains(queued.path("status").asText()), queued.toString());
        assertTrue(queued.path("message").asText().contains("Insufficient nvidia.com/gpu"), queued.toString());
        assertTrue(queued.path("message").asText().contains("didn't match Pod's node affinity/selector"), queued.toString());
        // The console is Chinese first: the same job in zh-CN has its status and the reason's explanation in Chinese,
        // the scheduler's own message verbatim.
        HttpResponse<String> zh = Http.get(stack.gateway() + "/api/v1/jobs/" + waiting, client.token("bob"),
                Map.of("Accept-Language", "zh-CN"));
        assertEquals(200, zh.statusCode(), zh.body());
        JsonNode inChinese = Http.json(zh);
        assertTrue(inChinese.path("statusText").asText().matches(".*\\p{IsHan}.*"), zh.body());
        assertTrue(inChinese.path("reasonExplanation").asText().matches(".*\\p{IsHan}.*"), zh.body());
        assertTrue(inChinese.path("message").asText().contains("Insufficient nvidia.com/gpu"), zh.body());

        client.post("alice", "/api/v1/jobs/" + filler + "/stop", Map.of()).require("stop");
        await("alice", filler, j -> "STOPPED".equals(j.path("status").asText()), Duration.ofMinutes(2));
        awaitTrue("the stopped job's pods gone from the sim's API", () -> simPods(filler).isEmpty(), Duration.ofMinutes(1));
        await("bob", waiting, j -> "RUNNING".equals(j.path("status").asText()), Duration.ofMinutes(3));
        client.post("bob", "/api/v1/jobs/" + waiting + "/stop", Map.of()).require("stop");
    }

    @Test
    void aHealthyRunShowsItsLogsAndGpuUtilisationThroughTheGatewayAndSucceeds() {
        String job = submit("carol", "resnet-healthy", null, 1, 2, "A800");
        await("carol", job, j -> "RUNNING".equals(j.path("status").asText()), Duration.ofMinutes(3));
        awaitTrue("torchrun's lines through log-service", () -> client.get("carol", "/api/v1/jobs/" + job + "/logs?limit=500")
                .require("logs").path("items").findValuesAsText("line").stream()
                .anyMatch(l -> l.contains("torch.distributed.run") || l.contains("torch/distributed/run.py")), Duration.ofMinutes(2));
        awaitTrue("GPU utilisation above 50 % through metrics-service", () -> {
            for (JsonNode series : client.get("carol", "/api/v1/jobs/" + job + "/metrics?metric=gpu_util")
                    .require("metrics").path("series")) {
                for (JsonNode point : series.path("points")) {
                    if (point.get(1).asDouble() > 50) {
                        return true;
                    }
                }
            }
            return false;
        }, Duration.ofMinutes(2));
        await("carol", job, j -> "SUCCEEDED".equals(j.path("status").asText()), Duration.ofMinutes(5));
    }

    @Test
    void aHostMemoryOomEndsFailedWithTheKubeletsReasonAndAnAutomaticDiagnosis() {
        String job = submit("bob", "vicuna-oom", "oom", 1, 1, "A800");
        // The kubelet's OOMKilled, even when the Job controller's BackoffLimitExceeded reached jobmon first.
        await("bob", job, j -> "FAILED".equals(j.path("status").asText()) && "OOMKilled".equals(j.path("reason").asText()),
                Duration.ofMinutes(4));
        JsonNode pods = client.get("bob", "/api/v1/jobs/" + job + "/pods").require("pods");
        assertTrue(pods.toString().contains("\"reason\":\"OOMKilled\""), pods.toString());
        JsonNode diagnosis = awaitDiagnosis("bob", job);
        assertEquals("JOB_FAILED", diagnosis.path("trigger").asText(), diagnosis.toString());
        assertEquals(1, client.get("bob", "/api/v1/jobs/" + job + "/diagnoses").require("diagnoses").path("items").size(),
                "one automatic diagnosis per failure");
        assertEquals("CONTAINER_OOM", diagnosis.at("/result/category").asText(), diagnosis.toString());
        // Nobody's token was involved: diagnosis-service read the job's lines and GPU series with its own identity.
        JsonNode missing = diagnosis.path("missingSources");
        assertTrue(missing.isMissingNode() || missing.isEmpty(), diagnosis.toString());
        assertTrue(diagnosis.at("/evidenceRead/logs/window").asInt() > 0, diagnosis.toString());
        assertTrue(diagnosis.at("/evidenceRead/metrics/series").asInt() > 0, diagnosis.toString());
    }

    @Test
    void aMissingModuleEndsFailedAndADiagnosisAskedByTheUserQuotesTheTraceback() {
        String job = submit("alice", "flash-attn-missing", "missing-module", 1, 1, "A800");
        await("alice", job, j -> "FAILED".equals(j.path("status").asText()), Duration.ofMinutes(3));
        awaitTrue("the traceback in log-service", () -> client.get("alice", "/api/v1/jobs/" + job + "/logs?q=ModuleNotFoundError")
                .require("logs").path("items").size() > 0, Duration.ofMinutes(1));
        String id = client.post("alice", "/api/v1/jobs/" + job + "/diagnoses", Map.of()).require("diagnosis").path("id").asText();
        JsonNode[] d = {null};
        awaitTrue("diagnosis " + id, () -> "DONE".equals((d[0] = client.get("alice", "/api/v1/diagnoses/" + id)
                .require("diagnosis")).path("status").asText()), Duration.ofMinutes(1));
        assertEquals("DEPENDENCY_MISSING", d[0].at("/result/category").asText(), d[0].toString());
    }

    @Test
    void everyPublicSampleReplayedThroughTheIntakeIsDiagnosedAsItsAnalysis() throws Exception {
        Replayer replayer = new Replayer(client, "alice", "project-nlp", Duration.ofMinutes(8));
        ExecutorService pool = Executors.newFixedThreadPool(6);
        Map<String, Future<Replayer.Outcome>> runs = new LinkedHashMap<>();
        for (String name : SAMPLES) {
            JsonNode bundle = sample(name);
            runs.put(name, pool.submit(() -> replayer.replay(name, bundle, line -> System.out.println("[replay] " + line))));
        }
        List<String> differ = new ArrayList<>();
        for (Map.Entry<String, Future<Replayer.Outcome>> run : runs.entrySet()) {
            Replayer.Outcome o = run.getValue().get();
            if (!o.matches()) {
                differ.add(run.getKey() + ": intake " + o.intake().path("category").asText() + "/"
                        + o.intake().path("action").asText() + ", analyze " + o.analyze().path("category").asText() + "/"
                        + o.analyze().path("action").asText() + " (" + o.intake().path("summary").asText() + ")");
            }
        }
        pool.shutdown();
        assertTrue(differ.isEmpty(), "diagnoses through the intake that differ from /analyze:\n" + String.join("\n", differ));
    }

    // ---- helpers -----------------------------------------------------------------------------------------

    private static String submit(String user, String name, String scenario, int replicas, int gpus, String type) {
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("name", name);
        spec.put("project", "carol".equals(user) ? "project-cv" : "project-nlp");
        spec.put("cluster", "sim");
        spec.put("image", "registry.local/e2e/trainer:1");
        spec.put("replicas", replicas);
        spec.put("resources", Map.of("gpuType", type, "gpusPerReplica", gpus));
        if (scenario != null) {
            spec.put("labels", Map.of("jobmon.io/sim-scenario", scenario));
        }
        return client.post(user, "/api/v1/jobs", spec).require("submission of " + name).path("id").asText();
    }

    private static JsonNode await(String user, String job, Predicate<JsonNode> done, Duration max) {
        JsonNode[] last = {null};
        awaitTrue("job " + job + " (last seen: see below)", () -> done.test(last[0] = client.get(user, "/api/v1/jobs/" + job)
                .require("job " + job)), max, () -> String.valueOf(last[0]));
        return last[0];
    }

    private static JsonNode awaitDiagnosis(String user, String job) {
        JsonNode[] done = {null};
        awaitTrue("an automatic diagnosis of " + job, () -> {
            for (JsonNode d : client.get(user, "/api/v1/jobs/" + job + "/diagnoses").require("diagnoses").path("items")) {
                if ("DONE".equals(d.path("status").asText())) {
                    done[0] = d;
                    return true;
                }
            }
            return false;
        }, Duration.ofMinutes(2));
        return done[0];
    }

    private static List<JsonNode> simPods(String job) {
        String selector = URLEncoder.encode("jobmon.io/job-id=" + job, StandardCharsets.UTF_8);
        List<JsonNode> pods = new ArrayList<>();
        client.kube("/api/v1/namespaces/jobmon-jobs/pods?labelSelector=" + selector).require("sim pods").path("items")
                .forEach(pods::add);
        return pods;
    }

    private static JsonNode sample(String name) throws IOException {
        try (InputStream in = SimStackIT.class.getResourceAsStream("/diagnosis-samples/" + name + ".json")) {
            if (in == null) {
                throw new IllegalStateException("no sample " + name + " in src/test/resources/diagnosis-samples");
            }
            return JSON.readTree(in);
        }
    }

    private static void awaitTrue(String what, java.util.function.BooleanSupplier check, Duration max) {
        awaitTrue(what, check, max, () -> "");
    }

    /** Polls every 2 s until {@code check} holds; fails after {@code max} with what was last seen. */
    private static void awaitTrue(String what, java.util.function.BooleanSupplier check, Duration max,
            java.util.function.Supplier<String> lastSeen) {
        long deadline = System.nanoTime() + max.toNanos();
        while (!check.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("gave up after " + max.toSeconds() + " s waiting for " + what + " " + lastSeen.get());
            }
            try {
                Thread.sleep(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                fail("interrupted waiting for " + what);
            }
        }
    }
}
