package io.jobmon.jobs;

import static io.restassured.RestAssured.given;

import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.events.JobStatusChanged;
import io.jobmon.contracts.events.PodSummary;
import io.restassured.http.ContentType;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Test data: job specs, submissions over HTTP, status transitions. */
public final class TestJobs {

    private TestJobs() {
    }

    /** A valid spec for project-nlp on the external test cluster (no workload is created there). */
    public static Map<String, Object> spec() {
        Map<String, Object> s = new HashMap<>();
        s.put("name", "train-" + UUID.randomUUID().toString().substring(0, 8));
        s.put("project", "project-nlp");
        s.put("cluster", "ext-b");
        s.put("image", "registry.local/nlp/train:1.0");
        s.put("command", List.of("python", "train.py"));
        s.put("replicas", 1);
        s.put("resources", Map.of("gpuType", "A800", "gpusPerReplica", 2, "cpu", "8", "memory", "64Gi"));
        return s;
    }

    public static Map<String, Object> spec(Map<String, Object> overrides) {
        Map<String, Object> s = spec();
        s.putAll(overrides);
        return s;
    }

    /** Submits as the token's user and returns the job id. */
    public static String submit(String token, Map<String, Object> spec) {
        return given().auth().oauth2(token).contentType(ContentType.JSON).body(spec)
                .post("/api/v1/jobs").then().statusCode(201).extract().path("id");
    }

    public static String submit(String token) {
        return submit(token, spec());
    }

    /** Makes jobmon know the tokens' users (a job is shared only with users jobmon has seen sign in). */
    public static void known(String... tokens) {
        for (String t : tokens) {
            given().auth().oauth2(t).get("/api/v1/users").then().statusCode(200);
        }
    }

    public static JobStatusChanged status(String jobId, JobStatus status, long sequence, String reason) {
        return new JobStatusChanged(jobId, "ext-b", status, reason, reason == null ? null : "message " + reason, null,
                Instant.now(), sequence, List.of());
    }

    public static JobStatusChanged status(String jobId, JobStatus status, long sequence, String reason,
            List<PodSummary> pods) {
        return new JobStatusChanged(jobId, "ext-b", status, reason, null, null, Instant.now(), sequence, pods);
    }
}
