package io.jobmon.gateway;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jobmon.testsupport.Management;
import io.jobmon.testsupport.Tokens;
import io.jobmon.testsupport.ZhCnText;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** The gateway routes each public path to its service, streams, and fails clearly. */
@QuarkusTest
@WithTestResource(OidcWiremockTestResource.class)
@WithTestResource(FakeDownstreams.class)
class GatewayTest {

    @TestHTTPResource("/")
    URL base;

    @Test
    void meShowsTheCallerAsThePlatformUnderstandsIt() {
        given().auth().oauth2(Tokens.alice()).get("/api/v1/me").then().statusCode(200)
                .body("user", equalTo("alice"))
                .body("tenant", equalTo("t1"))
                .body("groups", hasItems("project-nlp"))
                .body("roles", hasItems("user"))
                .body("admin", equalTo(false));
        given().auth().oauth2(Tokens.admin()).get("/api/v1/me").then().statusCode(200).body("admin", equalTo(true));
    }

    @Test
    void theGatewaysOwnPathsRefuseAQueryParameterTheyDoNotTakeWhileProxiedOnesAreTheServicesToJudge() {
        given().auth().oauth2(Tokens.alice()).get("/api/v1/me?verbose=true").then().statusCode(400)
                .contentType("application/problem+json").body("errors[0].field", equalTo("verbose"))
                .body("errors[0].code", equalTo("field.no-parameters"));
        routesTo(Tokens.alice(), "/api/v1/jobs?anything=1", "job");
    }

    @Test
    void eachPathGoesToTheServiceThatOwnsIt() {
        String token = Tokens.user("router").get();
        routesTo(token, "/api/v1/jobs?scope=mine", "job");
        routesTo(token, "/api/v1/jobs/j-1/pods", "job");
        routesTo(token, "/api/v1/jobs/j-1/events?type=Warning", "events");
        routesTo(token, "/api/v1/jobs/j-1/logs?tail=10", "logs");
        routesTo(token, "/api/v1/jobs/j-1/metrics?metric=gpu_util", "metrics");
        routesTo(token, "/api/v1/nodes/gpu-node-1/metrics", "metrics");
        routesTo(token, "/api/v1/metrics/overview", "metrics");
    }

    private void routesTo(String token, String path, String service) {
        var response = given().auth().oauth2(token).get(path);
        assertEquals(java.util.List.of("fake-" + service), response.headers().getValues("X-Jobmon-Service"));
        response.then().statusCode(200)
                .body("service", equalTo(service))
                .body("uri", equalTo(path))
                .body("authorization", equalTo(true));
    }

    @Test
    void theRequestIdIsForwardedAndEchoedOnce() {
        var response = given().auth().oauth2(Tokens.user("rid").get()).header("X-Request-Id", "trace-7")
                .get("/api/v1/jobs/j-9");
        response.then().statusCode(200)
                .header("X-Request-Id", "trace-7")
                .body("requestId", equalTo("trace-7"));
        assertEquals(java.util.List.of("trace-7"), response.headers().getValues("X-Request-Id"));
        given().auth().oauth2(Tokens.user("rid2").get()).get("/api/v1/jobs/j-9").then()
                .body("requestId", notNullValue());
    }

    @Test
    void requestBodiesReachTheService() {
        String body = "{\"name\":\"llama-sft\",\"replicas\":2}";
        given().auth().oauth2(Tokens.user("poster").get()).contentType("application/json").body(body)
                .post("/api/v1/jobs").then().statusCode(200)
                .body("method", equalTo("POST"))
                .body("bodyLength", equalTo(body.length()));
    }

    @Test
    void withoutATokenNothingIsForwarded() {
        given().get("/api/v1/jobs").then().statusCode(401).contentType("application/problem+json");
        given().auth().oauth2("not-a-jwt").get("/api/v1/jobs").then().statusCode(401)
                .contentType("application/problem+json");
    }

    @Test
    void aServiceThatIsDownIsAQuick503Problem() {
        given().auth().oauth2(Tokens.user("down").get()).get("/api/v1/jobs/j-1/diagnoses").then().statusCode(503)
                .contentType("application/problem+json")
                .header("X-Jobmon-Service", "gateway")
                .header("Retry-After", notNullValue())
                .body("type", equalTo("https://jobmon.io/problems/dependency-unavailable"))
                .body("detail", containsString("diagnosis"));
        ZhCnText.assertChinese(given().auth().oauth2(Tokens.user("down").get()).header("Accept-Language", "zh-CN")
                .get("/api/v1/jobs/j-1/diagnoses").then().statusCode(503)
                .body("title", equalTo("服务暂不可用")).body("detail", equalTo("诊断服务暂不可用"))
                .extract().asString());
    }

    @Test
    void lookupsGoToJobService() {
        String token = Tokens.user("looker").get();
        for (String path : new String[] {"/api/v1/clusters", "/api/v1/queues", "/api/v1/projects", "/api/v1/tags",
                "/api/v1/users?q=al"}) {
            routesTo(token, path, "job");
        }
    }

    @Test
    void a401AndA429CarryTheCorsHeadersSoABrowserCanReadThem() {
        given().header("Origin", "http://localhost:3000").get("/api/v1/jobs").then().statusCode(401)
                .contentType("application/problem+json")
                .header("Access-Control-Allow-Origin", "http://localhost:3000");
        given().header("Origin", "http://localhost:3000").auth().oauth2("not-a-jwt").get("/api/v1/jobs").then()
                .statusCode(401).header("Access-Control-Allow-Origin", "http://localhost:3000");
        String expired = Tokens.user("late").expiresIn(Duration.ofSeconds(-120)).get();
        given().header("Origin", "http://localhost:3000").auth().oauth2(expired).get("/api/v1/jobs").then()
                .statusCode(401).header("Access-Control-Allow-Origin", "http://localhost:3000");
        String token = Tokens.user("greedy-cors").get();
        int status = 200;
        for (int i = 0; i < 50 && status != 429; i++) {
            status = given().auth().oauth2(token).get("/api/v1/jobs").statusCode();
        }
        assertEquals(429, status);
        given().header("Origin", "http://localhost:3000").auth().oauth2(token).get("/api/v1/jobs").then()
                .statusCode(429).contentType("application/problem+json")
                .header("Access-Control-Allow-Origin", "http://localhost:3000")
                .header("Access-Control-Expose-Headers", containsString("Retry-After"));
    }

    @Test
    void aServiceThatFallsSilentIsA504Problem() {
        given().auth().oauth2(Tokens.user("hang").get()).get("/api/v1/jobs/hang").then().statusCode(504)
                .contentType("application/problem+json");
    }

    @Test
    void anUnknownPathIsA404Problem() {
        given().auth().oauth2(Tokens.user("lost").get()).get("/api/v1/nope").then().statusCode(404)
                .contentType("application/problem+json").header("X-Jobmon-Service", "gateway");
    }

    @Test
    void aUserOverTheRateLimitGets429WithRetryAfter() {
        String token = Tokens.user("greedy").get();
        int status = 200;
        for (int i = 0; i < 50 && status != 429; i++) {
            status = given().auth().oauth2(token).get("/api/v1/jobs").statusCode();
        }
        assertEquals(429, status);
        given().auth().oauth2(token).get("/api/v1/jobs").then().statusCode(429)
                .contentType("application/problem+json").header("Retry-After", notNullValue());
        // another user is not affected
        given().auth().oauth2(Tokens.user("modest").get()).get("/api/v1/jobs").then().statusCode(200);
    }

    @Test
    void serverSentEventsAreStreamedNotBuffered() throws Exception {
        FakeDownstreams.secondEvent = new CountDownLatch(1);
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + "api/v1/jobs/j-1/logs/stream"))
                .header("Authorization", "Bearer " + Tokens.user("follower").get()).build();
        HttpResponse<InputStream> response = HttpClient.newHttpClient()
                .sendAsync(request, HttpResponse.BodyHandlers.ofInputStream())
                .get(20, java.util.concurrent.TimeUnit.SECONDS);
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            // The first event arrives while the service still holds back the second one.
            assertEquals("id: 1", reader.readLine());
            assertEquals("data: first", reader.readLine());
            FakeDownstreams.secondEvent.countDown();
            reader.readLine();
            assertEquals("id: 2", reader.readLine());
        }
    }

    @Test
    void largeDownloadsArriveWhole() throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + "api/v1/jobs/j-1/logs/download"))
                .header("Authorization", "Bearer " + Tokens.user("downloader").get())
                .timeout(Duration.ofSeconds(30)).build();
        HttpResponse<byte[]> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, response.statusCode());
        assertEquals(FakeDownstreams.DOWNLOAD_BYTES, response.body().length);
    }

    @Test
    void readinessReportsEachDownstreamWithoutTakingTheGatewayOutOfService() {
        given().get(Management.url("/q/health/ready")).then().statusCode(200)
                .body("checks.find { it.name == 'downstream services' }.data.degraded", equalTo(true))
                .body("checks.find { it.name == 'downstream services' }.data.job", equalTo("UP"))
                .body("checks.find { it.name == 'downstream services' }.data.logs", equalTo("UP"))
                .body("checks.find { it.name == 'downstream services' }.data.diagnosis", containsString("DOWN"));
    }

    @Test
    void theMergedOpenApiHasEveryReachableServicesPaths() {
        given().get("/openapi").then().statusCode(200)
                .body("paths", org.hamcrest.Matchers.hasKey("/api/v1/fake-job"))
                .body("paths", org.hamcrest.Matchers.hasKey("/api/v1/fake-logs"))
                .body("x-jobmon-missing", hasItems("diagnosis"));
    }

    @Test
    void corsPreflightFromTheFrontendOriginIsAllowed() {
        given().header("Origin", "http://localhost:3000").header("Access-Control-Request-Method", "GET")
                .options("/api/v1/jobs").then().statusCode(200)
                .header("Access-Control-Allow-Origin", "http://localhost:3000");
    }
}
