package io.jobmon.jobs.faults;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.DiagnosisFinished;
import io.jobmon.contracts.events.JobCommand;
import io.jobmon.contracts.events.JobSnapshot;
import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.events.JobStatusChanged;
import io.jobmon.contracts.events.Topics;
import io.jobmon.jobs.TestJobs;
import io.jobmon.testsupport.KafkaTestClient;
import io.jobmon.testsupport.OutageTestResource;
import io.jobmon.testsupport.Management;
import io.jobmon.testsupport.Tokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import io.restassured.response.Response;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL, then the broker, taken away from a running job-service (its links cut; the servers run on):
 * records that arrive during a database outage far longer than any retry budget are applied once when it ends,
 * none dead-lettered; clients get 503 problems with Retry-After; readiness says DOWN, naming the dependency, in
 * bounded time and comes back UP by itself; a change committed while the broker is away is published when it is
 * back. The service talks to Kafka over SASL/PLAIN throughout, so its consumers and its outbox producer prove
 * they take the shared security settings.
 */
@QuarkusTest
@TestProfile(OutageProfile.class)
@WithTestResource(OidcWiremockTestResource.class)
@WithKubernetesTestServer
class OutageTest {


    static void send(String topic, String key, String type, Object data) {
        // commands are taken only from automatic fault handling's producer
        String source = Topics.JOB_COMMANDS.equals(topic) ? "/jobmon/diagnosis-service" : "/test";
        KafkaTestClient.send(topic, key, CloudEvents.encode(source, type, key, data));
    }



    @Test
    void aDatabaseOutageLongerThanAnyRetryBudgetDeadLettersNothingAndAppliesEverythingOnce() {
        String running = TestJobs.submit(Tokens.alice());
        String failing = TestJobs.submit(Tokens.alice());
        String terminated = TestJobs.submit(Tokens.alice(), TestJobs.spec(java.util.Map.of("autoFaultHandling", true)));
        send(Topics.JOB_STATUS, terminated, JobStatusChanged.TYPE, TestJobs.status(terminated, JobStatus.RUNNING, 1, "Started"));
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> given().auth().oauth2(Tokens.alice())
                .get("/api/v1/jobs/" + terminated).then().body("status", equalTo("RUNNING")));
        double retriesBefore = Management.metric("jobmon_consumer_retries_total", "job-status");

        OutageTestResource.database().cut();
        try {
            send(Topics.JOB_STATUS, running, JobStatusChanged.TYPE, TestJobs.status(running, JobStatus.RUNNING, 1, "Started"));
            send(Topics.JOB_STATUS, failing, JobStatusChanged.TYPE, TestJobs.status(failing, JobStatus.FAILED, 1, "Error"));
            String diagnosis = "d-" + UUID.randomUUID();
            send(Topics.DIAGNOSES, failing, DiagnosisFinished.TYPE, new DiagnosisFinished(diagnosis, failing, "JOB_FAILED",
                    "GPU_OOM", "TERMINATE", "CUDA out of memory", 0.9, Instant.now()));
            String command = "c-" + UUID.randomUUID();
            for (String d : List.of("d-1-" + terminated, "d-2-" + terminated)) {
                send(Topics.DIAGNOSES, terminated, DiagnosisFinished.TYPE, new DiagnosisFinished(d, terminated,
                        "PERIODIC", "NCCL_COMMUNICATION_ERROR", "TERMINATE", "NCCL timeout", 0.9, Instant.now()));
            }
            send(Topics.JOB_COMMANDS, terminated, JobCommand.TYPE, new JobCommand(command, terminated,
                    JobCommand.Kind.TERMINATE, List.of("d-1-" + terminated, "d-2-" + terminated), "NCCL timeout twice",
                    Instant.now()));

            // Clients: a 503 problem with Retry-After, never a 500.
            given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs").then().statusCode(503)
                    .contentType("application/problem+json").header("Retry-After", startsWith(""))
                    .body("type", equalTo("https://jobmon.io/problems/dependency-unavailable"));
            // Readiness: DOWN, naming PostgreSQL, answered in bounded time.
            Response down = Management.ready();
            assertEquals(503, down.statusCode(), down.asString());
            assertTrue(down.asString().contains("postgresql") && down.asString().contains("DOWN"), down.asString());
            // The consumers retry — far past the 8 attempts they used to give up after — and show it.
            await().atMost(Duration.ofSeconds(90)).until(() -> Management.metric("jobmon_consumer_retries_total", "job-status")
                    - retriesBefore > 12);
            assertEquals(1.0, Management.metric("jobmon_consumer_retrying", "job-status"));
            given().get(Management.url("/q/health/ready")).then()
                    .body("checks.find { it.name == 'Kafka consumers' }.data.degraded", equalTo(true));
        } finally {
            OutageTestResource.database().restore();
        }

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> Management.ready().then().statusCode(200));
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> given().auth().oauth2(Tokens.alice())
                .get("/api/v1/jobs/" + terminated + "/timeline").then().body("items[-1].reason",
                        equalTo("TerminatedByFaultHandling")));
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> given().auth().oauth2(Tokens.alice())
                .get("/api/v1/jobs/" + failing).then().body("status", equalTo("FAILED"))
                .body("failureReason", equalTo("GPU_OOM")));
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + running + "/timeline").then()
                .body("items", hasSize(2)).body("items[1].status", equalTo("RUNNING"));
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + terminated + "/attempts").then()
                .body("commands", hasSize(1)).body("commands[0].outcome", equalTo("EXECUTED"));
        assertEquals(0.0, Management.metric("jobmon_consumer_retrying", "job-status"));
        for (String topic : List.of(Topics.JOB_STATUS, Topics.DIAGNOSES, Topics.JOB_COMMANDS)) {
            assertEquals(List.of(), KafkaTestClient.await(Topics.dlq(topic), r -> r.value() != null
                    && (r.value().contains(running) || r.value().contains(failing) || r.value().contains(terminated)),
                    1, Duration.ofSeconds(3)), "nothing dead-lettered on " + topic);
        }
    }

    @Test
    void aBrokerOutageIsReportedAndWhatWasCommittedMeanwhileIsPublishedAfter() {
        String id = TestJobs.submit(Tokens.alice());
        OutageTestResource.broker().cut();
        try {
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                Response r = Management.ready();
                assertEquals(503, r.statusCode(), r.asString());
                assertTrue(r.asString().contains("kafka"), r.asString());
            });
            // The API keeps working on what it has; the change waits in the outbox.
            given().auth().oauth2(Tokens.alice()).contentType("application/json")
                    .body(Map.of("tags", List.of("during-outage"))).put("/api/v1/jobs/" + id + "/tags").then()
                    .statusCode(200);
        } finally {
            OutageTestResource.broker().restore();
        }
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> Management.ready().then().statusCode(200));
        var published = KafkaTestClient.await(Topics.JOB_CHANGES, r -> id.equals(r.key()) && r.value() != null
                && CloudEvents.decode(r.value(), JobSnapshot.class).data().tags().contains("during-outage"), 1,
                Duration.ofSeconds(60));
        assertEquals(1, published.size(), "the snapshot committed during the outage is published over SASL after it");
        given().get(Management.url("/q/metrics")).then().body(containsString("jobmon_outbox_published_total"));
    }
}
