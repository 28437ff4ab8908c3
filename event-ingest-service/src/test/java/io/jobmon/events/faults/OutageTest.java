package io.jobmon.events.faults;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.JobSnapshot;
import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.events.JobStatusChanged;
import io.jobmon.contracts.events.Topics;
import io.jobmon.events.ingest.Store;
import io.jobmon.events.k8s.Fixtures;
import io.jobmon.testsupport.KafkaTestClient;
import io.jobmon.testsupport.OutageTestResource;
import io.jobmon.testsupport.Management;
import io.jobmon.testsupport.Tokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import io.restassured.response.Response;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL taken away from a running event-ingest (its link cut) while pods and a job snapshot arrive: both
 * consumers retry far beyond any budget, dead-letter nothing, and apply everything once when it is back; the API
 * answers 503 problems meanwhile and readiness DOWN in bounded time, UP again by itself. Kafka is over SASL/PLAIN.
 */
@QuarkusTest
@TestProfile(OutageProfile.class)
@WithTestResource(OidcWiremockTestResource.class)
class OutageTest {

    @Inject
    Pool pool;




    static void sendPod(String job, String fixture) {
        String pod = job + "-p0";
        KafkaTestClient.send(Topics.K8S_RAW, "c1/team-nlp/" + pod, Fixtures.record("c1", "MODIFIED",
                Fixtures.retarget(fixture, job, pod, job + "-uid", Fixtures.json(fixture).path("metadata")
                        .path("resourceVersion").asLong()), null));
    }

    static JobSnapshot snapshot(String job) {
        return new JobSnapshot(job, "t1", "alice", "project-nlp", "PRIVATE", List.of(), "train", "c1", "r", "q",
                JobStatus.PENDING, null, "A800", 2, List.of(), List.of(), false, false, 0, 0, Instant.now(), null, null,
                1, false, "team-nlp", null, List.of());
    }

    @Test
    void aDatabaseOutageDeadLettersNothingAndEveryRecordIsAppliedOnceAfter() {
        String job = "j-" + UUID.randomUUID().toString().substring(0, 8);
        double before = Management.metric("jobmon_consumer_retries_total", "k8s-raw");
        OutageTestResource.database().cut();
        try {
            KafkaTestClient.send(Topics.JOB_CHANGES, job, CloudEvents.encode("/test", JobSnapshot.TYPE, job, snapshot(job)));
            sendPod(job, "pod-created");
            sendPod(job, "pod-running");
            given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + job + "/events").then().statusCode(503)
                    .contentType("application/problem+json").header("Retry-After", equalTo("5"));
            Response down = Management.ready();
            assertEquals(503, down.statusCode(), down.asString());
            assertTrue(down.asString().contains("postgresql"), down.asString());
            await().atMost(Duration.ofSeconds(90)).until(() -> Management.metric("jobmon_consumer_retries_total", "k8s-raw")
                    - before > 12 && Management.metric("jobmon_consumer_retrying", "job-changes") == 1.0);
        } finally {
            OutageTestResource.database().restore();
        }
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> Management.ready().then().statusCode(200));
        List<JobStatusChanged> published = Store.statuses(job, 2);
        assertEquals(List.of(JobStatus.PENDING, JobStatus.RUNNING), published.stream().map(JobStatusChanged::status).toList());
        assertEquals(2, KafkaTestClient.await(Topics.JOB_STATUS, r -> job.equals(r.key()), 3, Duration.ofSeconds(5)).size(),
                "each transition once");
        assertEquals(1, Store.count(pool, "SELECT count(*) FROM job_access WHERE job_id = $1", job));
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + job + "/events").then().statusCode(200);
        for (String topic : List.of(Topics.K8S_RAW, Topics.JOB_CHANGES)) {
            assertEquals(List.of(), KafkaTestClient.await(Topics.dlq(topic), r -> r.value() != null
                    && r.value().contains(job), 1, Duration.ofSeconds(3)), "nothing dead-lettered on " + topic);
        }
    }

    @Test
    void aBrokerOutageIsReportedByReadinessWhichRecoversByItself() {
        OutageTestResource.broker().cut();
        try {
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                Response r = Management.ready();
                assertEquals(503, r.statusCode(), r.asString());
                assertTrue(r.asString().contains("kafka"), r.asString());
            });
        } finally {
            OutageTestResource.broker().restore();
        }
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> Management.ready().then().statusCode(200));
    }
}
