package io.jobmon.metrics.faults;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.events.Topics;
import io.jobmon.metrics.Fixtures;
import io.jobmon.testsupport.KafkaTestClient;
import io.jobmon.testsupport.Management;
import io.jobmon.testsupport.OutageTestResource;
import io.jobmon.testsupport.Tokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL taken away from a running metrics-service (its link cut) while a job's snapshot and its GPU samples
 * arrive: both consumers retry far beyond any budget, dead-letter nothing, and store every sample once when the
 * database is back; the API answers 503 problems meanwhile and readiness DOWN, UP again by itself. Kafka is
 * SASL/PLAIN, so every Kafka client of the service is shown to take the shared security settings.
 */
@QuarkusTest
@TestProfile(OutageProfile.class)
@WithTestResource(OidcWiremockTestResource.class)
class OutageTest {

    static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");

    static String query() {
        return "metric=gpu_util&from=" + T0 + "&to=" + T0.plus(Duration.ofHours(1));
    }

    static JsonPath chart(String job) {
        Response r = given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + job + "/metrics?" + query());
        assertEquals(200, r.statusCode(), r.asString());
        return r.jsonPath();
    }

    @Test
    void aDatabaseOutageDeadLettersNothingAndEverySampleIsStoredOnceAfter() {
        String job = Fixtures.newId("j");
        String node = Fixtures.newId("n");
        double before = Management.metric("jobmon_consumer_retries_total", "");
        OutageTestResource.database().cut();
        try {
            Fixtures.sendJob(Fixtures.job(job, JobStatus.RUNNING, List.of(job + "-0"), List.of(node), 1, T0, null, 1), T0);
            Fixtures.sendSamples(node, Fixtures.series("DCGM_FI_DEV_GPU_UTIL", Fixtures.gpu(node, 0, job + "-0"), T0, 40,
                    (i, ms) -> i));
            given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + job + "/metrics?" + query()).then()
                    .statusCode(503).contentType("application/problem+json").header("Retry-After", equalTo("5"));
            Response down = Management.ready();
            assertEquals(503, down.statusCode(), down.asString());
            assertTrue(down.asString().contains("postgresql"), down.asString());
            await().atMost(Duration.ofSeconds(90)).until(() -> Management.metric("jobmon_consumer_retries_total", "")
                    - before > 12);
        } finally {
            OutageTestResource.database().restore();
        }
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> Management.ready().then().statusCode(200));
        await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> {
            JsonPath c = chart(job);
            assertEquals(1, c.getList("series").size(), c.prettify());
            assertEquals(40, Fixtures.points(c, 0), "each sample stored once: " + c.prettify());
        });
        JsonPath c = chart(job);
        for (int i = 0; i < 40; i++) {
            assertEquals((double) i, c.getDouble("series[0].points[" + i + "][1]"), "sample " + i + " in order, once");
        }
        for (String topic : List.of(Topics.METRICS_SAMPLES, Topics.JOB_CHANGES)) {
            assertEquals(List.of(), KafkaTestClient.await(Topics.dlq(topic), r -> r.value() != null
                    && (r.value().contains(job) || r.value().contains(node)), 1, Duration.ofSeconds(3)),
                    "nothing dead-lettered on " + topic);
        }
    }
}
