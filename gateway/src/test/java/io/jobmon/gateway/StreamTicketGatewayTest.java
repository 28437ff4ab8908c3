package io.jobmon.gateway;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jobmon.testsupport.Tokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A browser's follow with a stream ticket (issue #29, ADR 0027) passes the gateway without a bearer token, to
 * log-service, which redeems it; every other form and every other /api path still needs a token.
 */
@QuarkusTest
@WithTestResource(OidcWiremockTestResource.class)
@WithTestResource(FakeDownstreams.class)
class StreamTicketGatewayTest {

    @TestHTTPResource("/")
    URI base;

    private final HttpClient http = HttpClient.newHttpClient();

    /** As EventSource sends it: no Authorization, Accept: text/event-stream. */
    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(base.resolve(path)).header("Accept", "text/event-stream").build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void theTicketFormOfTheFollowReachesLogServiceWithoutAToken() throws Exception {
        String path = "/api/v1/jobs/j-1/logs/stream?ticket=t0k3n-abc&type=user";
        HttpResponse<String> r = get(path);
        assertEquals(200, r.statusCode(), r.body());
        assertEquals(List.of("fake-logs"), r.headers().allValues("X-Jobmon-Service"));
        io.restassured.path.json.JsonPath echo = new io.restassured.path.json.JsonPath(r.body());
        assertEquals("logs", echo.getString("service"));
        assertEquals(path, echo.getString("uri"));
        assertEquals(false, echo.getBoolean("authorization"));
    }

    @Test
    void everyOtherFormAndPathStillNeedsAToken() throws Exception {
        for (String path : List.of("/api/v1/jobs/j-1/logs/stream", "/api/v1/jobs/j-1/logs/stream?ticket=",
                "/api/v1/jobs/j-1/logs?ticket=abc", "/api/v1/jobs/j-1/logs/download?ticket=abc",
                "/api/v1/jobs/j-1/logs/stream/x?ticket=abc", "/api/v1/jobs/j-1?ticket=abc", "/api/v1/me?ticket=abc",
                "/api/v1/jobs?ticket=abc", "/api/v1/jobs/j-1/logs/stream?access_token=" + Tokens.alice())) {
            HttpResponse<String> r = get(path);
            assertEquals(401, r.statusCode(), path);
            assertEquals("application/problem+json", r.headers().firstValue("Content-Type").orElse(""), path);
        }
        // other methods on the follow's path, with a ticket and no token
        given().post("/api/v1/jobs/j-1/logs/stream?ticket=abc").then().statusCode(401);
        given().delete("/api/v1/jobs/j-1/logs/stream?ticket=abc").then().statusCode(401);
        // a ticket beside a forged token does not open anything: the token is checked
        given().header("Authorization", "Bearer not-a-jwt").get("/api/v1/jobs/j-1/logs/stream?ticket=abc").then()
                .statusCode(401);
        // with a token the follow's path is routed as before
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/j-1/logs/stream-tickets").then().statusCode(200)
                .body("service", equalTo("logs")).body("authorization", equalTo(true));
    }
}
