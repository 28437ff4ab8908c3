package io.jobmon.metrics.api;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;

import io.jobmon.contracts.events.JobStatus;
import io.jobmon.metrics.Fixtures;
import io.jobmon.testsupport.FuzzChecks;
import io.jobmon.testsupport.AlertmanagerTestResource;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.jobmon.testsupport.Tokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Every operation of metrics-service, fuzzed from its own OpenAPI document, answers a 4xx problem, never a 5xx. Job
 * ids name a job of alice's, so chart parameters reach their validation.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
@WithTestResource(AlertmanagerTestResource.class)
class FuzzTest extends FuzzChecks {

    private static String job;

    @Override
    protected String pathValue(String method, String template, String parameter) {
        if (!template.startsWith("/api/v1/jobs/")) {
            return "fuzz-" + parameter;
        }
        if (job == null) {
            String id = Fixtures.newId("fz");
            Instant start = Instant.now().minus(Duration.ofHours(1));
            Fixtures.sendJob(Fixtures.job(id, JobStatus.RUNNING, List.of(id + "-0"), List.of("fz-node"), 1, start,
                    null, 1), start);
            await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> given().auth().oauth2(Tokens.alice())
                    .get("/api/v1/jobs/" + id + "/metrics").statusCode() == 200);
            job = id;
        }
        return job;
    }
}
