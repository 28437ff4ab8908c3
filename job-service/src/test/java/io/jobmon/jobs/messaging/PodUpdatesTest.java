package io.jobmon.jobs.messaging;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import io.jobmon.contracts.events.CloudEvents;
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
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Pods stay current between status transitions: pods-only records on {@code jobmon.job.status} (through the broker)
 * show on the job's pods — restarts, container state, how the last run ended — and never move its status.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
@WithKubernetesTestServer
class PodUpdatesTest {

    static void send(JobStatusChanged e) {
        KafkaTestClient.send(Topics.JOB_STATUS, e.jobId(),
                CloudEvents.encode("/test/event-ingest", JobStatusChanged.TYPE, e.jobId(), e));
    }

    static PodSummary pod(String name, String phase, ContainerSummary c) {
        return new PodSummary(name, "train", "gpu-node-1", phase, null, List.of(c),
                List.of(new PodSummary.Condition("Ready", "Running".equals(phase) ? "True" : "False", null, null,
                        Instant.now())));
    }

    @Test
    void aRunningPodRestartedNineTimesShowsItWithoutMovingTheStatus() {
        String id = TestJobs.submit(Tokens.alice());
        String name = id + "-0";
        Instant t = Instant.now();
        send(new JobStatusChanged(id, "ext-b", JobStatus.RUNNING, null, null, null, t, 1, List.of(pod(name, "Pending",
                new ContainerSummary("main", "waiting", "ContainerCreating", null, 0)))));
        // the container starts, crashes three times, runs again: pods-only records, coalesced per pod by event-ingest
        send(JobStatusChanged.podsOnly(id, "ext-b", JobStatus.RUNNING, t.plusSeconds(5), 1, List.of(pod(name,
                "Running", new ContainerSummary("main", "running", null, null, 3,
                        new PodSummary.LastState("Error", 1, t.plusSeconds(4)))))));
        send(JobStatusChanged.podsOnly(id, "ext-b", JobStatus.RUNNING, t.plusSeconds(9), 1, List.of(pod(name,
                "Running", new ContainerSummary("main", "running", null, null, 9,
                        new PodSummary.LastState("OOMKilled", 137, t.plusSeconds(8)))))));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given().auth().oauth2(Tokens.alice())
                .header("Accept-Language", "zh-CN").get("/api/v1/jobs/" + id + "/pods").then().statusCode(200)
                .body("items[0].phase", equalTo("Running"))
                .body("items[0].containers[0].state", equalTo("running"))
                .body("items[0].containers[0].reason", org.hamcrest.Matchers.nullValue())
                .body("items[0].containers[0].restartCount", equalTo(9))
                .body("items[0].containers[0].lastState.reason", equalTo("OOMKilled"))
                .body("items[0].containers[0].lastState.reasonCode", equalTo("out-of-memory"))
                .body("items[0].containers[0].lastState.reasonExplanation",
                        org.hamcrest.Matchers.startsWith("容器使用的内存超过上限"))
                .body("items[0].containers[0].lastState.exitCode", equalTo(137))
                .body("items[0].conditions[0].status", equalTo("True")));
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + id).then().body("status", equalTo("RUNNING"))
                .body("pods.byPhase.Running", equalTo(1));
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + id + "/timeline").then().body("items", hasSize(2));
    }

    @Test
    void aPodsOnlyRecordNeverMovesTheStatusAndAStaleOneChangesNothing() {
        String id = TestJobs.submit(Tokens.alice());
        String name = id + "-0";
        Instant t = Instant.now();
        send(new JobStatusChanged(id, "ext-b", JobStatus.RUNNING, null, null, null, t, 2, List.of(pod(name, "Running",
                new ContainerSummary("main", "running", null, null, 0)))));
        // a pods-only record claiming another status (a broken producer) and one older than the transition
        send(JobStatusChanged.podsOnly(id, "ext-b", JobStatus.FAILED, t.plusSeconds(1), 2, List.of(pod(name,
                "Running", new ContainerSummary("main", "running", null, null, 1)))));
        send(JobStatusChanged.podsOnly(id, "ext-b", JobStatus.PENDING, t.minusSeconds(10), 1, List.of(pod(name,
                "Pending", new ContainerSummary("main", "waiting", "ContainerCreating", null, 0)))));
        send(JobStatusChanged.podsOnly(id, "ext-b", JobStatus.RUNNING, t.plusSeconds(2), 2, List.of(pod(name,
                "Running", new ContainerSummary("main", "running", null, null, 2)))));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given().auth().oauth2(Tokens.alice())
                .get("/api/v1/jobs/" + id + "/pods").then().body("items[0].containers[0].restartCount", equalTo(2)));
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + id).then().body("status", equalTo("RUNNING"));
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + id + "/timeline").then().body("items", hasSize(2))
                .body("items[1].status", equalTo("RUNNING"));
    }

    @Test
    void anAbnormalJobFinishesWhenItsLastPodEnded() {
        String id = TestJobs.submit(Tokens.alice());
        // cluster times after the submission (a time before it would be raised to it: ADR 0017)
        Instant t = Instant.parse(given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + id).then()
                .extract().path("submittedAt")).plusSeconds(1);
        send(new JobStatusChanged(id, "ext-b", JobStatus.RUNNING, null, null, null, t, 1, List.of(pod(id + "-0",
                "Running", new ContainerSummary("main", "running", null, null, 0)))));
        send(new JobStatusChanged(id, "ext-b", JobStatus.ABNORMAL, "NodeLost", "node gpu-node-1 was lost", null,
                t.plusSeconds(60), 2, List.of(pod(id + "-0", "Unknown",
                        new ContainerSummary("main", "running", null, null, 0)))));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given().auth().oauth2(Tokens.alice())
                .get("/api/v1/jobs/" + id).then().body("status", equalTo("ABNORMAL"))
                .body("finishedAt", org.hamcrest.Matchers.nullValue()));
        send(JobStatusChanged.podsOnly(id, "ext-b", JobStatus.ABNORMAL, t.plusSeconds(120), 2, List.of(pod(id + "-0",
                "Deleted", new ContainerSummary("main", "terminated", "ContainerStatusUnknown", 137, 0)))));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given().auth().oauth2(Tokens.alice())
                .get("/api/v1/jobs/" + id).then().body("status", equalTo("ABNORMAL"))
                .body("finishedAt", org.hamcrest.Matchers.notNullValue())
                .body("runSeconds", equalTo(120)));
    }
}
