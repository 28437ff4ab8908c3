package io.jobmon.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import io.jobmon.sim.stack.ReplaySummary;
import io.jobmon.sim.stack.Replayer;
import io.jobmon.sim.stack.StackClient;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Test;

import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static io.jobmon.e2e.SimJobs.awaitTrue;

/**
 * The sim cluster {@code sim} of {@code ./jobmon up} through the real paths: jobs submitted through the gateway with
 * Keycloak tokens, created on the sim's Kubernetes API by job-service's fabric8 code, watched by event-ingest, scraped
 * by metrics-service, their lines on Kafka in Fluent Bit's form; and every public diagnosis sample replayed through
 * that intake, diagnosed as {@code /api/v1/diagnoses/analyze} diagnoses the bundle itself. The sim runs healthy jobs
 * for {@code jobmon.e2e.sim-run-time} (2 min).
 */
@Order(2)
class SimStackIT {

    @RegisterExtension
    static final SharedStack.Use STACK = SharedStack.use(SharedStack.SIM);

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
    void aJobThatDoesNotFitWaitsWithTheSchedulersReasonAndRunsOnceAStoppedJobsPodsAreGone() {
        // Four 8-GPU A800 pods take every GPU of the sim's four A800 nodes (its two H100 nodes do not take A800 jobs);
        // the job hangs until stopped.
        String filler = jobs.submit("alice", "cluster-filler", "hang", 4, 8, "A800");
        jobs.await("alice", filler, j -> "RUNNING".equals(j.path("status").asText()), Duration.ofMinutes(3));
        List<JsonNode> placed = simPods(filler);
        assertEquals(4, placed.size());
        assertEquals(4, placed.stream().map(p -> p.at("/spec/nodeName").asText()).filter(n -> n.startsWith("gpu-a800"))
                .distinct().count(), placed.toString());

        String waiting = jobs.submit("bob", "gpu-waiter", null, 1, 8, "A800");
        JsonNode queued = jobs.await("bob", waiting, j -> "FailedScheduling".equals(j.path("reason").asText()),
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
        jobs.await("alice", filler, j -> "STOPPED".equals(j.path("status").asText()), Duration.ofMinutes(2));
        awaitTrue("the stopped job's pods gone from the sim's API", () -> simPods(filler).isEmpty(), Duration.ofMinutes(1));
        jobs.await("bob", waiting, j -> "RUNNING".equals(j.path("status").asText()), Duration.ofMinutes(3));
        client.post("bob", "/api/v1/jobs/" + waiting + "/stop", Map.of()).require("stop");
    }

    @Test
    void aHealthyRunShowsItsLogsAndGpuUtilisationThroughTheGatewayAndSucceeds() {
        String job = jobs.submit("carol", "resnet-healthy", null, 1, 2, "A800");
        jobs.await("carol", job, j -> "RUNNING".equals(j.path("status").asText()), Duration.ofMinutes(3));
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
        jobs.await("carol", job, j -> "SUCCEEDED".equals(j.path("status").asText()), Duration.ofMinutes(5));
    }

    @Test
    void aHostMemoryOomEndsFailedWithTheKubeletsReasonAndAnAutomaticDiagnosis() {
        String job = jobs.submit("bob", "vicuna-oom", "oom", 1, 1, "A800");
        // The kubelet's OOMKilled, even when the Job controller's BackoffLimitExceeded reached jobmon first.
        jobs.await("bob", job, j -> "FAILED".equals(j.path("status").asText()) && "OOMKilled".equals(j.path("reason").asText()),
                Duration.ofMinutes(4));
        JsonNode pods = client.get("bob", "/api/v1/jobs/" + job + "/pods").require("pods");
        assertTrue(pods.toString().contains("\"reason\":\"OOMKilled\""), pods.toString());
        JsonNode diagnosis = jobs.awaitDiagnosis("bob", job);
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
        String job = jobs.submit("alice", "flash-attn-missing", "missing-module", 1, 1, "A800");
        jobs.await("alice", job, j -> "FAILED".equals(j.path("status").asText()), Duration.ofMinutes(3));
        awaitTrue("the traceback in log-service", () -> client.get("alice", "/api/v1/jobs/" + job + "/logs?q=ModuleNotFoundError")
                .require("logs").path("items").size() > 0, Duration.ofMinutes(1));
        String id = client.post("alice", "/api/v1/jobs/" + job + "/diagnoses", Map.of()).require("diagnosis").path("id").asText();
        JsonNode[] d = {null};
        awaitTrue("diagnosis " + id, () -> "DONE".equals((d[0] = client.get("alice", "/api/v1/diagnoses/" + id)
                .require("diagnosis")).path("status").asText()), Duration.ofMinutes(1));
        assertEquals("DEPENDENCY_MISSING", d[0].at("/result/category").asText(), d[0].toString());
    }

    /**
     * {@code ./jobmon replay --summary} over the 22 public samples and the bundles whose only hardware evidence is
     * node-level (an Xid in a DCGM series the exporter did not label with the pod, kernel lines): every one diagnosed
     * through the intake as {@code /analyze} diagnoses the bundle itself. Read from diagnosis-service's one copy.
     */
    @Test
    void everyPublicSampleReplayedThroughTheIntakeIsDiagnosedAsItsAnalysis() throws Exception {
        Replayer replayer = new Replayer(client, "alice", "project-nlp", Duration.ofMinutes(8));
        Path samples = stack.root.resolve("diagnosis-service/src/test/resources");
        java.io.ByteArrayOutputStream table = new java.io.ByteArrayOutputStream();
        int exit = ReplaySummary.run(replayer, List.of(samples.resolve("samples"),
                samples.resolve("samples-forms/node-only")), 6, 0.0, new java.io.PrintStream(table, true,
                        StandardCharsets.UTF_8));
        String printed = table.toString(StandardCharsets.UTF_8);
        System.out.println(printed);
        assertEquals(0, exit, "diagnoses through the intake that differ from /analyze:\n" + printed);
    }

    /**
     * Jobs share nodes (issue #24): on one H100 node (the sim bin-packs GPUs) a host-memory {@code oom} job and an
     * {@code xid-79} job of bob's, an {@code nccl-timeout} job of carol's and a healthy job of alice's, the last two
     * opted in to automatic fault handling. Each faulty job gets its own cause; the neighbours' diagnoses never take
     * the others' kernel lines as their own, the healthy job runs to its end with no RESTART/TERMINATE proposed and no
     * line of the other jobs' processes in its system logs, and the guard restarts the NCCL job saying so in both
     * languages.
     */
    @Test
    void coLocatedJobsAreEachJudgedOnTheirOwnEvidence() {
        String healthy = jobs.submit("alice", "llama-neighbour", null, 1, 2, "H100", Map.of("autoFaultHandling", true));
        String oom = jobs.submit("bob", "vicuna-host-oom", "oom", 1, 2, "H100");
        String xid = jobs.submit("bob", "gpt-xid79", "xid-79", 1, 2, "H100");
        String nccl = jobs.submit("carol", "vit-nccl", "nccl-timeout", 1, 2, "H100", Map.of("autoFaultHandling", true,
                "supportsRestart", true, "maxRetries", 1));
        Map<String, String> owner = Map.of(healthy, "alice", oom, "bob", xid, "bob", nccl, "carol");
        for (String job : owner.keySet()) {
            jobs.await(owner.get(job), job, j -> List.of("RUNNING", "FAILED", "SUCCEEDED").contains(j.path("status").asText()),
                    Duration.ofMinutes(3));
        }
        String node = jobs.nodeOf("alice", healthy);
        for (String job : List.of(oom, xid, nccl)) {
            assertEquals(node, jobs.nodeOf(owner.get(job), job), "the sim bin-packs the four jobs onto one H100 node");
        }

        // Each faulty job's own cause, from its own evidence.
        jobs.await("bob", oom, j -> "FAILED".equals(j.path("status").asText()), Duration.ofMinutes(4));
        assertEquals("CONTAINER_OOM", jobs.awaitDiagnosis("bob", oom).at("/result/category").asText());
        jobs.await("bob", xid, j -> "FAILED".equals(j.path("status").asText()), Duration.ofMinutes(4));
        JsonNode xidDiagnosis = jobs.awaitDiagnosis("bob", xid);
        assertEquals("GPU_HARDWARE_FAULT", xidDiagnosis.at("/result/category").asText(), xidDiagnosis.toString());

        // The healthy neighbour runs to its end: the guard saw it at least twice after the faults and proposed nothing.
        jobs.await("alice", healthy, j -> "SUCCEEDED".equals(j.path("status").asText()), Duration.ofMinutes(4));
        List<JsonNode> checks = periodic("alice", healthy);
        assertTrue(checks.size() >= 2, "two guard periods of the healthy job: " + checks);
        for (JsonNode d : checks) {
            assertFalse(List.of("CONTAINER_OOM", "GPU_HARDWARE_FAULT").contains(d.at("/result/category").asText()),
                    "a neighbour's cause named for the healthy job: " + d);
            assertFalse(List.of("RESTART", "TERMINATE").contains(d.at("/result/action").asText()), d.toString());
        }
        // Its system logs hold no line of the other jobs' processes (their OOM kill, their GPU's Xid).
        JsonNode system = client.get("alice", "/api/v1/jobs/" + healthy + "/logs?type=system&limit=500").require("logs");
        for (JsonNode line : system.path("items")) {
            String text = line.path("line").asText();
            assertFalse(text.contains("Killed process") || text.contains("oom-kill") || text.contains("Xid"),
                    "another job's line in alice's system logs: " + line);
            assertTrue(line.has("attribution"), "a system line shown with a job says why it is the job's: " + line);
        }
        // bob's own system logs do show his OOM kill, attributed to his pod.
        awaitTrue("bob's OOM-killer lines with his job", () -> client.get("bob", "/api/v1/jobs/" + oom
                + "/logs?type=system&q=Killed%20process").require("logs").path("items").size() > 0, Duration.ofMinutes(1));

        // The NCCL job: never someone else's cause; the guard restarts it and says so, in English and Chinese.
        JsonNode restarted = jobs.await("carol", nccl, j -> "Restarting".equals(j.path("reason").asText()),
                Duration.ofMinutes(4));
        for (JsonNode d : periodic("carol", nccl)) {
            assertFalse(List.of("CONTAINER_OOM", "GPU_HARDWARE_FAULT").contains(d.at("/result/category").asText()),
                    "a neighbour's cause named for the NCCL job: " + d);
        }
        assertTrue(restarted.path("message").asText().startsWith("restarted by automatic fault handling as attempt 2"),
                restarted.toString());
        HttpResponse<String> zh = Http.get(stack.gateway() + "/api/v1/jobs/" + nccl, client.token("carol"),
                Map.of("Accept-Language", "zh-CN"));
        assertTrue(Http.json(zh).path("message").asText().startsWith("自动容错将作业作为第 2 次尝试重启"), zh.body());
        JsonNode attempts = client.get("carol", "/api/v1/jobs/" + nccl + "/attempts").require("attempts");
        assertEquals("DIAGNOSIS", attempts.at("/attempts/1/cause").asText(), attempts.toString());
        for (JsonNode a : attempts.path("attempts")) {
            String id = a.path("jobId").asText();
            client.post("carol", "/api/v1/jobs/" + id + "/stop", Map.of());
        }
    }

    // ---- helpers -----------------------------------------------------------------------------------------

    /** The job's finished periodic (guard) diagnoses. */
    private static List<JsonNode> periodic(String user, String job) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode d : client.get(user, "/api/v1/jobs/" + job + "/diagnoses").require("diagnoses").path("items")) {
            if ("PERIODIC".equals(d.path("trigger").asText()) && "DONE".equals(d.path("status").asText())) {
                out.add(d);
            }
        }
        return out;
    }

    private static List<JsonNode> simPods(String job) {
        String selector = URLEncoder.encode("jobmon.io/job-id=" + job, StandardCharsets.UTF_8);
        List<JsonNode> pods = new ArrayList<>();
        client.kube("/api/v1/namespaces/jobmon-jobs/pods?labelSelector=" + selector).require("sim pods").path("items")
                .forEach(pods::add);
        return pods;
    }

}
