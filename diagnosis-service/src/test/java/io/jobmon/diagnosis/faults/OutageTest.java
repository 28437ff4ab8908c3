package io.jobmon.diagnosis.faults;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.DiagnosisFinished;
import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.events.Topics;
import io.jobmon.diagnosis.support.Diagnoses;
import io.jobmon.diagnosis.support.Jobs;
import io.jobmon.diagnosis.support.Records;
import io.jobmon.testsupport.KafkaTestClient;
import io.jobmon.testsupport.OutageTestResource;
import io.jobmon.testsupport.Management;
import io.jobmon.testsupport.Tokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import io.restassured.response.Response;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL taken away from a running diagnosis-service while a job fails: the automatic diagnosis it asks for is
 * not lost nor dead-lettered, but made once when the database is back, and its result reaches jobmon.diagnoses
 * through the outbox (over SASL/PLAIN); meanwhile the API answers 503 problems and readiness DOWN, in bounded time.
 */
@QuarkusTest
@TestProfile(OutageProfile.class)
@WithTestResource(OidcWiremockTestResource.class)
class OutageTest {




    @Test
    void aFailureDuringADatabaseOutageIsDiagnosedOnceAfterItAndPublished() {
        String job = Jobs.job(Jobs.newId("outage")).publish();
        double before = Management.metric("jobmon_consumer_retries_total", "job-status");
        OutageTestResource.database().cut();
        try {
            Records.sendStatus(job, Records.status(job, JobStatus.FAILED, 1, "OOMKilled", "exit 137", "OOMKilled", 137));
            given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + job + "/diagnoses").then().statusCode(503)
                    .contentType("application/problem+json").header("Retry-After", equalTo("5"));
            Response down = Management.ready();
            assertEquals(503, down.statusCode(), down.asString());
            assertTrue(down.asString().contains("postgresql"), down.asString());
            await().atMost(Duration.ofSeconds(90)).until(() -> Management.metric("jobmon_consumer_retries_total", "job-status")
                    - before > 12);
        } finally {
            OutageTestResource.database().restore();
        }
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> Management.ready().then().statusCode(200));
        await().atMost(Duration.ofSeconds(90)).until(() -> Diagnoses.history(Tokens.alice(), job).getList("items")
                .size() == 1);
        var published = KafkaTestClient.await(Topics.DIAGNOSES, r -> job.equals(r.key()), 1, Duration.ofSeconds(90));
        assertEquals(1, published.size(), "the finished diagnosis reaches jobmon.diagnoses through the outbox");
        assertEquals(job, CloudEvents.decode(published.get(0).value(), DiagnosisFinished.class).data().jobId());
        assertEquals(1, Diagnoses.history(Tokens.alice(), job).getList("items").size(), "made once");
        assertEquals(List.of(), KafkaTestClient.await(Topics.dlq(Topics.JOB_STATUS), r -> job.equals(r.key()), 1,
                Duration.ofSeconds(3)), "nothing dead-lettered");
    }
}
