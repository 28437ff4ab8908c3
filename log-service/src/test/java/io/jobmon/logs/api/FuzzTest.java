package io.jobmon.logs.api;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;

import io.jobmon.logs.Fixtures;
import io.jobmon.testsupport.FuzzChecks;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.jobmon.testsupport.Tokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import java.time.Duration;
import java.util.List;

/**
 * Every operation of log-service, fuzzed from its own OpenAPI document (the download route included), answers a 4xx
 * problem, never a 5xx. Ids name a job alice may see, so parameters reach their validation; the follow stream is
 * aimed at a job nobody has (a visible one would stream until the client leaves).
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
class FuzzTest extends FuzzChecks {

    private static String job;

    @Override
    protected String pathValue(String method, String template, String parameter) {
        if (template.endsWith("/stream")) {
            return "fuzz-none";
        }
        if (job == null) {
            String id = Fixtures.newJob();
            Fixtures.publish(Fixtures.job(id, "PRIVATE", List.of(), List.of(id + "-w0"), 1));
            await().atMost(Duration.ofSeconds(60)).until(() -> given().auth().oauth2(Tokens.alice())
                    .get("/api/v1/jobs/" + id + "/logs").statusCode() == 200);
            job = id;
        }
        return job;
    }
}
