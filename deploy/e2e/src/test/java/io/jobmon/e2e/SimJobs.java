package io.jobmon.e2e;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import io.jobmon.sim.stack.StackClient;
import io.jobmon.sim.stack.StackOptions;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/** Jobs on the sim cluster as the end-to-end tests submit and watch them, every call through the gateway. */
final class SimJobs {

    private final StackClient client;

    /** A client of the stack as the frontend is one (public client jobmon-ui), with the sim's APIs. */
    SimJobs(LocalStack stack) {
        this.client = new StackClient(new StackOptions(stack.gateway(), stack.issuer(), "jobmon-ui", stack.simAdmin(),
                stack.simApi(), "sim", "jobmon-jobs"));
    }

    StackClient client() {
        return client;
    }

    /** A job of {@code replicas} pods of {@code gpus} GPUs of {@code type}, playing a sim scenario (null: healthy). */
    String submit(String user, String name, String scenario, int replicas, int gpus, String type) {
        return submit(user, name, scenario, replicas, gpus, type, Map.of());
    }

    /** The same with more fields of the spec (e.g. {@code autoFaultHandling}). */
    String submit(String user, String name, String scenario, int replicas, int gpus, String type,
            Map<String, Object> extra) {
        Map<String, Object> spec = new LinkedHashMap<>(extra);
        spec.put("name", name);
        spec.put("project", "carol".equals(user) ? "project-cv" : "project-nlp");
        spec.put("cluster", "sim");
        spec.put("image", "registry.local/e2e/trainer:1");
        spec.put("replicas", replicas);
        // extra may give the whole resources (cpu, memory limits)
        spec.putIfAbsent("resources", Map.of("gpuType", type, "gpusPerReplica", gpus));
        if (scenario != null) {
            spec.put("labels", Map.of("jobmon.io/sim-scenario", scenario));
        }
        return client.post(user, "/api/v1/jobs", spec).require("submission of " + name).path("id").asText();
    }

    /** The node the job's first placed pod runs on. */
    String nodeOf(String user, String job) {
        JsonNode[] node = {null};
        awaitTrue("the node of " + job, () -> {
            for (JsonNode p : client.get(user, "/api/v1/jobs/" + job + "/pods").require("pods").path("items")) {
                if (p.hasNonNull("node")) {
                    node[0] = p.get("node");
                    return true;
                }
            }
            return false;
        }, Duration.ofMinutes(1));
        return node[0].asText();
    }

    /** The job's detail once {@code done} holds for it. */
    JsonNode await(String user, String job, Predicate<JsonNode> done, Duration max) {
        JsonNode[] last = {null};
        awaitTrue("job " + job + " (last seen: see below)", () -> done.test(last[0] = client.get(user, "/api/v1/jobs/" + job)
                .require("job " + job)), max, () -> String.valueOf(last[0]));
        return last[0];
    }

    /** The job's first finished diagnosis. */
    JsonNode awaitDiagnosis(String user, String job) {
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

    static void awaitTrue(String what, BooleanSupplier check, Duration max) {
        awaitTrue(what, check, max, () -> "");
    }

    /**
     * Polls every 2 s until {@code check} holds; a check that throws (a 503 while a replica was just killed) counts as
     * not yet. Fails after {@code max} with what was last seen.
     */
    static void awaitTrue(String what, BooleanSupplier check, Duration max, Supplier<String> lastSeen) {
        long deadline = System.nanoTime() + max.toNanos();
        Throwable error = null;
        while (true) {
            try {
                if (check.getAsBoolean()) {
                    return;
                }
                error = null;
            } catch (RuntimeException | AssertionError e) {
                error = e;
            }
            if (System.nanoTime() > deadline) {
                String seen;
                try {
                    seen = lastSeen.get();
                } catch (RuntimeException | AssertionError e) {
                    seen = "(" + e + ")";
                }
                fail("gave up after " + max.toSeconds() + " s waiting for " + what + " " + seen
                        + (error == null ? "" : " (last error: " + error + ")"));
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
