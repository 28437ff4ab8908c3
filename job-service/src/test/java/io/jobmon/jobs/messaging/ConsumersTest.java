package io.jobmon.jobs.messaging;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.DiagnosisFinished;
import io.jobmon.contracts.events.JobCommand;
import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.events.JobStatusChanged;
import io.jobmon.contracts.events.PodSummary;
import io.jobmon.contracts.events.PodSummary.ContainerSummary;
import io.jobmon.contracts.events.Topics;
import io.jobmon.jobs.TestJobs;
import io.jobmon.testsupport.KafkaTestClient;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.jobmon.testsupport.Tokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The consumers over the real broker: order, duplicates, the DLQ, diagnoses and commands. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
@WithKubernetesTestServer
class ConsumersTest {

    static void send(JobStatusChanged e) {
        KafkaTestClient.send(Topics.JOB_STATUS, e.jobId(),
                CloudEvents.encode("/test/event-ingest", JobStatusChanged.TYPE, e.jobId(), e));
    }

    static void awaitStatus(String id, String status, int timelineEntries) {
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given().auth().oauth2(Tokens.alice())
                .get("/api/v1/jobs/" + id + "/timeline").then().body("items", hasSize(timelineEntries))
                .body("items[" + (timelineEntries - 1) + "].status", equalTo(status)));
    }

    static PodSummary pod(String name, String phase, String state, Integer exit) {
        return new PodSummary(name, "train", "gpu-node-1", phase, null,
                List.of(new ContainerSummary("main", state, exit == null ? null : "Error", exit, 0)));
    }

    @Test
    void transitionsApplyInSequenceOrderAndDuplicatesOrStaleOnesChangeNothing() {
        String id = TestJobs.submit(Tokens.alice());
        Instant t = Instant.now();
        send(new JobStatusChanged(id, "ext-b", JobStatus.QUEUED, "QuotaExceeded", "queue gpu-prod is full", null, t, 1,
                List.of()));
        send(new JobStatusChanged(id, "ext-b", JobStatus.RUNNING, "Started", null, null, t.plusSeconds(60), 3,
                List.of(pod(id + "-0", "Running", "running", null), pod(id + "-1", "Running", "running", null))));
        // late and duplicate deliveries
        send(new JobStatusChanged(id, "ext-b", JobStatus.PARTIALLY_PENDING, "Unschedulable", null, null,
                t.plusSeconds(30), 2, List.of()));
        send(new JobStatusChanged(id, "ext-b", JobStatus.RUNNING, "Started", null, null, t.plusSeconds(60), 3,
                List.of()));
        send(new JobStatusChanged(id, "ext-b", JobStatus.FAILED, "Error", "exit 1", 1, t.plusSeconds(120), 4,
                List.of(pod(id + "-0", "Failed", "terminated", 1))));
        awaitStatus(id, "FAILED", 4);
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + id + "/timeline").then()
                .body("items.status", contains("PENDING", "QUEUED", "RUNNING", "FAILED"))
                .body("items[1].reason", equalTo("QuotaExceeded"))
                .body("items[1].message", equalTo("queue gpu-prod is full"));
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + id).then()
                .body("status", equalTo("FAILED")).body("failureReason", equalTo("Error"))
                .body("exitCode", equalTo(1)).body("queueSeconds", org.hamcrest.Matchers.greaterThanOrEqualTo(0))
                .body("runSeconds", equalTo(60)).body("runTime", equalTo("1m"))
                .body("pods.total", equalTo(2)).body("pods.byPhase.Failed", equalTo(1));
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + id + "/pods").then()
                .body("items.name", contains(id + "-0", id + "-1"))
                .body("items[0].containers[0].exitCode", equalTo(1))
                .body("items[0].conditions.type", contains("PodScheduled", "Ready"))
                .body("items[1].conditions[1].status", equalTo("True"));
    }

    @Test
    void aFailedJobKeepsItsStatusButLaterReportsStillBringItsOtherPodsLastStates() {
        String id = TestJobs.submit(Tokens.alice());
        Instant t = Instant.now();
        send(new JobStatusChanged(id, "ext-b", JobStatus.RUNNING, "Started", null, null, t, 1,
                List.of(pod(id + "-0", "Running", "running", null), pod(id + "-1", "Running", "running", null))));
        send(new JobStatusChanged(id, "ext-b", JobStatus.FAILED, "Error", "exit 1", 1, t.plusSeconds(60), 2,
                List.of(pod(id + "-0", "Failed", "terminated", 1))));
        awaitStatus(id, "FAILED", 3);
        // the gang's other pod ends after the one that failed the job
        send(new JobStatusChanged(id, "ext-b", JobStatus.RUNNING, "Started", null, null, t.plusSeconds(70), 3,
                List.of(pod(id + "-1", "Failed", "terminated", 143))));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given().auth().oauth2(Tokens.alice())
                .get("/api/v1/jobs/" + id).then().body("pods.byPhase.Failed", equalTo(2)));
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + id).then().body("status", equalTo("FAILED"))
                .body("reason", equalTo("Error")).body("exitCode", equalTo(1));
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + id + "/timeline").then()
                .body("items.status", contains("PENDING", "RUNNING", "FAILED"));
    }

    @Test
    void podConditionsAreShownAsTheKubeletReportedThem() {
        String id = TestJobs.submit(Tokens.alice());
        Instant t = Instant.parse("2026-07-13T09:30:00Z");
        PodSummary pending = new PodSummary(id + "-0", "train", null, "Pending", null, List.of(), List.of(
                new PodSummary.Condition("PodScheduled", "False", "Unschedulable",
                        "0/8 nodes are available: 8 Insufficient nvidia.com/gpu.", t)));
        send(new JobStatusChanged(id, "ext-b", JobStatus.QUEUED, "Unschedulable", null, null, Instant.now(), 1,
                List.of(pending)));
        awaitStatus(id, "QUEUED", 2);
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + id + "/pods").then()
                .body("items[0].conditions", hasSize(1))
                .body("items[0].conditions[0].type", equalTo("PodScheduled"))
                .body("items[0].conditions[0].status", equalTo("False"))
                .body("items[0].conditions[0].reason", equalTo("Unschedulable"))
                .body("items[0].conditions[0].message", containsString("Insufficient nvidia.com/gpu"))
                .body("items[0].conditions[0].lastTransitionTime", equalTo("2026-07-13T09:30:00.000Z"));
    }

    @Test
    void podsArePagedByName() {
        String id = TestJobs.submit(Tokens.alice());
        List<PodSummary> pods = new java.util.ArrayList<>();
        for (int i = 0; i < 5; i++) {
            pods.add(pod(id + "-" + i, "Running", "running", null));
        }
        send(new JobStatusChanged(id, "ext-b", JobStatus.RUNNING, "Started", null, null, Instant.now(), 1, pods));
        awaitStatus(id, "RUNNING", 2);
        String next = given().auth().oauth2(Tokens.alice()).queryParam("limit", 3).get("/api/v1/jobs/" + id + "/pods")
                .then().body("items", hasSize(3)).extract().path("nextCursor");
        given().auth().oauth2(Tokens.alice()).queryParam("limit", 3).queryParam("cursor", next)
                .get("/api/v1/jobs/" + id + "/pods").then().body("items.name", contains(id + "-3", id + "-4"))
                .body("nextCursor", org.hamcrest.Matchers.nullValue());
    }

    @Test
    void aMalformedRecordGoesToTheDlqWithItsReasonAndThePartitionMovesOn() {
        String id = TestJobs.submit(Tokens.alice());
        KafkaTestClient.send(Topics.JOB_STATUS, id, "{this is not json");
        KafkaTestClient.send(Topics.JOB_STATUS, id, CloudEvents.encode("/test", JobStatusChanged.TYPE, id,
                Map.of("jobId", id, "status", "EXPLODED", "time", Instant.now().toString(), "sequence", 1)));
        send(TestJobs.status(id, JobStatus.RUNNING, 1, "Started"));
        var dead = KafkaTestClient.await(Topics.dlq(Topics.JOB_STATUS), r -> id.equals(r.key()), 2,
                Duration.ofSeconds(30));
        assertEquals(2, dead.size());
        var reason = dead.get(0).headers().lastHeader("dead-letter-reason");
        assertFalse(reason == null || new String(reason.value(), StandardCharsets.UTF_8).isBlank());
        awaitStatus(id, "RUNNING", 2);
    }

    @Test
    void aStatusForAJobJobServiceDoesNotKnowGoesToTheDlqNotSilentlyAway() {
        String ghost = "j-ghost-" + UUID.randomUUID().toString().substring(0, 6);
        send(TestJobs.status(ghost, JobStatus.RUNNING, 1, "Started"));
        String id = TestJobs.submit(Tokens.alice());
        send(TestJobs.status(id, JobStatus.RUNNING, 1, "Started"));
        awaitStatus(id, "RUNNING", 2);
        given().auth().oauth2(Tokens.admin()).get("/api/v1/jobs/" + ghost).then().statusCode(404);
        var dead = KafkaTestClient.await(Topics.dlq(Topics.JOB_STATUS), r -> ghost.equals(r.key()), 1,
                Duration.ofSeconds(30));
        assertEquals(1, dead.size());
        assertTrue(reason(dead.get(0)).contains("no job " + ghost), reason(dead.get(0)));
    }

    static String reason(org.apache.kafka.clients.consumer.ConsumerRecord<String, String> r) {
        var h = r.headers().lastHeader("dead-letter-reason");
        return h == null ? "" : new String(h.value(), StandardCharsets.UTF_8);
    }

    /** The envelope check, on each of job-service's three channels: nothing foreign is executed. */
    @Test
    void everyChannelSendsForeignTypesOtherSpecVersionsAndMismatchedKeysToItsDlq() {
        String id = TestJobs.submit(Tokens.alice());
        send(TestJobs.status(id, JobStatus.RUNNING, 1, "Started"));
        awaitStatus(id, "RUNNING", 2);
        JobCommand terminate = new JobCommand("c-" + UUID.randomUUID(), id, JobCommand.Kind.TERMINATE, List.of(),
                "evil", Instant.now());
        String command = CloudEvents.encode("/test", JobCommand.TYPE, id, terminate);
        String status = CloudEvents.encode("/test", JobStatusChanged.TYPE, id,
                TestJobs.status(id, JobStatus.FAILED, 2, "Error"));
        String diagnosis = CloudEvents.encode("/test", DiagnosisFinished.TYPE, id,
                new DiagnosisFinished("d-" + UUID.randomUUID(), id, "USER", "GPU_OOM", "NONE", "x", 1, Instant.now()));
        for (var topicAndValue : List.of(Map.entry(Topics.JOB_COMMANDS, command), Map.entry(Topics.JOB_STATUS, status),
                Map.entry(Topics.DIAGNOSES, diagnosis))) {
            String v = topicAndValue.getValue();
            String type = v.substring(v.indexOf("\"type\":\"") + 8, v.indexOf('"', v.indexOf("\"type\":\"") + 8));
            KafkaTestClient.send(topicAndValue.getKey(), id, v.replace(type, "com.evil.thing"));
            KafkaTestClient.send(topicAndValue.getKey(), id, v.replace("\"specversion\":\"1.0\"", "\"specversion\":\"2.0\""));
            KafkaTestClient.send(topicAndValue.getKey(), "j-someone-else", v);
            var dead = KafkaTestClient.await(Topics.dlq(topicAndValue.getKey()),
                    r -> r.value() != null && r.value().contains(id), 3, Duration.ofSeconds(30));
            assertEquals(3, dead.size(), topicAndValue.getKey());
            assertTrue(reason(dead.get(0)).contains("com.evil.thing"), reason(dead.get(0)));
            assertTrue(reason(dead.get(1)).contains("specversion"), reason(dead.get(1)));
            assertTrue(reason(dead.get(2)).contains("j-someone-else"), reason(dead.get(2)));
        }
        // nothing of it was executed: the job still runs, with its failure reason unset
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + id).then().body("status", equalTo("RUNNING"))
                .body("failureReason", org.hamcrest.Matchers.nullValue());
    }

    @Test
    void aDiagnosisSetsTheFailureReasonOfAFailedJobOnce() {
        String id = TestJobs.submit(Tokens.alice());
        send(TestJobs.status(id, JobStatus.FAILED, 1, "Error"));
        awaitStatus(id, "FAILED", 2);
        String diag = "d-" + UUID.randomUUID();
        DiagnosisFinished d = new DiagnosisFinished(diag, id, "JOB_FAILED", "GPU_OOM", "TERMINATE", "CUDA OOM", 0.9,
                Instant.now());
        KafkaTestClient.send(Topics.DIAGNOSES, id, CloudEvents.encode("/test", DiagnosisFinished.TYPE, id, d));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given().auth().oauth2(Tokens.alice())
                .get("/api/v1/jobs/" + id).then().body("failureReason", equalTo("GPU_OOM"))
                .body("failureDiagnosisId", equalTo(diag)));
    }

}
