package io.jobmon.logs.api;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.Management;
import io.jobmon.testsupport.PostgresTestResource;
import io.jobmon.testsupport.Tokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** HTTP metrics name route templates, never a job id, whatever the answer (issue #26, point 4). */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
class MetricTagsTest {

    @Test
    void requestsAreTaggedWithTemplatesNeverWithJobIds() {
        for (int i = 0; i < 30; i++) {
            given().get("/api/v1/jobs/job-secret-" + i + "/logs").then().statusCode(401); // no token
            given().auth().oauth2("not-a-token").get("/api/v1/jobs/job-secret-" + i + "/logs/stream").then().statusCode(401);
            given().urlEncodingEnabled(false).auth().oauth2(Tokens.alice()).get("/api/v1/jobs/job-secret-" + i + "/%2e%2e/x")
                    .then().statusCode(400);
        }
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/job-secret-a/logs").then().statusCode(404);
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/job-secret-b/logs/stream").then().statusCode(404);
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/job-secret-c/logs/download").then().statusCode(404);
        String metrics = given().get(Management.url("/q/metrics")).then().statusCode(200).extract().asString();
        Set<String> uris = new TreeSet<>();
        Matcher m = Pattern.compile("http_server_requests_seconds_count\\{[^}]*uri=\"([^\"]*)\"").matcher(metrics);
        while (m.find()) {
            uris.add(m.group(1));
        }
        assertTrue(uris.stream().noneMatch(u -> u.contains("job-secret")), uris.toString());
        assertTrue(uris.contains("/api/v1/jobs/{id}/logs"), uris.toString());
        assertTrue(uris.contains("/api/v1/jobs/{id}/logs/stream"), uris.toString());
        assertTrue(uris.contains("/api/v1/jobs/{id}/logs/download"), uris.toString());
    }
}
