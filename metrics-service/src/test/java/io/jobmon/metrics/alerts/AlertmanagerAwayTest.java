package io.jobmon.metrics.alerts;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.jobmon.testsupport.Tokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Alertmanager that does not answer: what needs it is a 503 problem with Retry-After; the history still answers. */
@QuarkusTest
@TestProfile(AlertmanagerAwayTest.Away.class)
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
class AlertmanagerAwayTest {

    /** Alertmanager's URL is a port nothing listens on. */
    public static class Away implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            try (ServerSocket s = new ServerSocket(0)) {
                return Map.of("jobmon.alerts.alertmanager-url", "http://127.0.0.1:" + s.getLocalPort());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    @Test
    void whatNeedsAlertmanagerIsA503WithRetryAfterAndTheHistoryStillAnswers() {
        for (String path : new String[] {"/api/v1/alerts", "/api/v1/alerts?state=firing", "/api/v1/alerts/silences"}) {
            String token = path.contains("silences") ? Tokens.admin() : Tokens.alice();
            given().auth().oauth2(token).header("Accept-Language", "zh-CN").get(path).then().statusCode(503)
                    .contentType("application/problem+json").header("Retry-After", notNullValue())
                    .body("status", equalTo(503));
        }
        given().auth().oauth2(Tokens.admin()).contentType("application/json")
                .body("{\"matchers\":[{\"name\":\"alertname\",\"value\":\"X\"}],\"duration\":\"1h\",\"comment\":\"c\"}")
                .post("/api/v1/alerts/silences").then().statusCode(503).header("Retry-After", notNullValue());
        given().auth().oauth2(Tokens.admin()).delete("/api/v1/alerts/silences/0123abcd-0000-0000-0000-000000000000")
                .then().statusCode(503);
        given().auth().oauth2(Tokens.alice()).get("/api/v1/alerts?state=resolved").then().statusCode(200);
    }
}
