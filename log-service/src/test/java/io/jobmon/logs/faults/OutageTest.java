package io.jobmon.logs.faults;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.contracts.events.Topics;
import io.jobmon.logs.Fixtures;
import io.jobmon.testsupport.KafkaTestClient;
import io.jobmon.testsupport.Management;
import io.jobmon.testsupport.OutageTestResource;
import io.jobmon.testsupport.Tokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import io.restassured.response.Response;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL taken away from a running log-service (its link cut) while a job's snapshot and its lines arrive:
 * both consumers retry far beyond any budget, dead-letter nothing, and store every line once when it is back; the
 * API answers 503 problems meanwhile and readiness DOWN in bounded time, UP again by itself. Kafka is SASL/PLAIN.
 */
@QuarkusTest
@TestProfile(OutageProfile.class)
@WithTestResource(OidcWiremockTestResource.class)
class OutageTest {

    static List<?> lines(String job) {
        return given().auth().oauth2(Tokens.alice()).queryParam("limit", "500").get("/api/v1/jobs/" + job + "/logs")
                .then().statusCode(200).extract().jsonPath().getList("items");
    }

    @Test
    void aDatabaseOutageDeadLettersNothingAndEveryLineIsStoredOnceAfter() {
        String job = Fixtures.newJob();
        double before = Management.metric("jobmon_consumer_retries_total", "");
        Instant t0 = Instant.parse("2026-11-30T10:00:00Z");
        OutageTestResource.database().cut();
        try {
            Fixtures.publish(Fixtures.job(job, "PRIVATE", List.of(), List.of(job + "-w0"), 1));
            List<String> records = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                records.add(Fixtures.fluentBit(job, job + "-w0", "trainer", t0.plusSeconds(i), "step " + i + " loss=0.5"));
            }
            Fixtures.sendAll(records);
            given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + job + "/logs").then().statusCode(503)
                    .contentType("application/problem+json").header("Retry-After", equalTo("5"));
            Response down = Management.ready();
            assertEquals(503, down.statusCode(), down.asString());
            assertTrue(down.asString().contains("postgresql"), down.asString());
            await().atMost(Duration.ofSeconds(90)).until(() -> Management.metric("jobmon_consumer_retries_total", "")
                    - before > 12);
        } finally {
            OutageTestResource.database().restore();
        }
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> Management.ready().then().statusCode(200));
        await().atMost(Duration.ofSeconds(90)).ignoreExceptions().until(() -> lines(job).size() == 20);
        assertEquals(20, lines(job).size(), "each line stored once");
        for (String topic : List.of(Topics.LOGS_LINES, Topics.JOB_CHANGES)) {
            assertEquals(List.of(), KafkaTestClient.await(Topics.dlq(topic), r -> r.value() != null
                    && r.value().contains(job), 1, Duration.ofSeconds(3)), "nothing dead-lettered on " + topic);
        }
    }
}
