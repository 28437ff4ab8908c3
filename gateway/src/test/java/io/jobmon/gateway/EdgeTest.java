package io.jobmon.gateway;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.testsupport.Management;
import io.jobmon.testsupport.Tokens;
import io.jobmon.testsupport.ZhCnText;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** What the edge refuses or hides: management endpoints, foreign tokens, users without the role, path tricks. */
@QuarkusTest
@WithTestResource(OidcWiremockTestResource.class)
@WithTestResource(FakeDownstreams.class)
class EdgeTest {

    @TestHTTPResource("/")
    URL base;


    @Test
    void managementEndpointsAreOnTheirOwnPortNeverOnTheApiPort() {
        for (String path : new String[] {"/q/metrics", "/q/health", "/q/health/ready", "/q/openapi"}) {
            given().get(path).then().statusCode(404).contentType("application/problem+json");
            given().auth().oauth2(Tokens.alice()).get(path).then().statusCode(404);
        }
        given().get(Management.url("/q/metrics")).then().statusCode(200);
        given().get(Management.url("/q/health/live")).then().statusCode(200);
    }

    @Test
    void dotSegmentsCannotReachAnotherPath() {
        for (String path : new String[] {"/api/v1/jobs/../../../q/metrics", "/api/v1/jobs/%2e%2e/%2e%2e/%2e%2e/q/metrics",
                "/api/v1/jobs/.%2E/x", "/api/v1/jobs/a%2fb/pods", "/api/v1/jobs/j-1%00/pods"}) {
            given().urlEncodingEnabled(false).auth().oauth2(Tokens.alice()).get(path).then().statusCode(400)
                    .contentType("application/problem+json").body("type", startsWith("https://jobmon.io/problems/"));
        }
    }

    @Test
    void aTokenForAnotherAudienceIsRefused() {
        given().auth().oauth2(Tokens.user("alice").audience("grafana").get()).get("/api/v1/me").then().statusCode(401)
                .contentType("application/problem+json");
    }

    @Test
    void aRealmUserWithoutThePlatformRoleCannotSubmit() {
        String noRole = Tokens.user("intruder").roles("offline_access", "uma_authorization").get();
        given().auth().oauth2(noRole).contentType("application/json").body("{}").post("/api/v1/jobs").then()
                .statusCode(403).contentType("application/problem+json");
        given().auth().oauth2(noRole).get("/api/v1/jobs").then().statusCode(403);
    }

    /**
     * Service identities are for calls inside the cluster (diagnosis-service reads the services directly): the
     * public gateway refuses them, reading included, and any token that names no user and tenant, before anything
     * is forwarded (issue #26, point 3).
     */
    @Test
    void aServiceIdentityOrATokenWithoutUserAndTenantIsRefusedAtTheGateway() {
        String userAndService = Tokens.user("service-account-jobmon-diagnosis").client("jobmon-diagnosis").tenant(null)
                .roles("service", "user").get();
        String noTenant = Tokens.user("nobody").tenant(null).get();
        for (String token : new String[] {Tokens.service(), userAndService, noTenant}) {
            for (String path : new String[] {"/api/v1/jobs/j-1", "/api/v1/jobs?scope=all", "/api/v1/jobs/j-1/logs?tail=10",
                    "/api/v1/jobs/j-1/diagnoses", "/api/v1/me"}) {
                given().auth().oauth2(token).get(path).then().statusCode(403).contentType("application/problem+json")
                        .header("X-Jobmon-Service", "gateway").body("status", equalTo(403));
            }
            given().auth().oauth2(token).contentType("application/json").body("{}").post("/api/v1/jobs/j-1/stop").then()
                    .statusCode(403).contentType("application/problem+json").header("X-Jobmon-Service", "gateway");
        }
        ZhCnText.assertChinese(given().auth().oauth2(userAndService)
                .header("Accept-Language", "zh-CN").get("/api/v1/jobs/j-1").then()
                .statusCode(403).body("detail", containsString("服务身份"))
                .extract().asString());
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/j-1").then().statusCode(200);
    }

    @Test
    void httpMetricsNameRouteTemplatesNotJobIds() {
        String token = Tokens.user("metered").get();
        given().auth().oauth2(token).get("/api/v1/jobs/job-secret-4711/pods").then().statusCode(200);
        given().auth().oauth2(token).get("/api/v1/jobs/job-secret-4711/logs/download").then().statusCode(200);
        given().get(Management.url("/q/metrics")).then().statusCode(200)
                .body(containsString("uri=\"/api/v1/jobs/{id}/pods\""))
                .body(containsString("uri=\"/api/v1/jobs/{id}/logs/download\""))
                .body(not(containsString("job-secret-4711")));
    }

    /**
     * Bad paths, anonymous or not, share one tag: 500 of them leave room for the real routes, which are still
     * recorded by their templates afterwards (issue #26, point 4).
     */
    @Test
    void manyBadPathsShareOneTagAndRealRoutesAreStillRecorded() {
        String token = Tokens.user("prober").get();
        for (int i = 0; i < 500; i++) {
            given().get("/api/v1/nope-" + i + "/x").then().statusCode(401).contentType("application/problem+json");
        }
        for (int i = 0; i < 30; i++) {
            given().auth().oauth2(token).get("/api/v1/unknown-" + i).then().statusCode(404);
            given().auth().oauth2(Tokens.user("prober-" + i).get()).get("/api/v1/jobs/j-" + i + "/deep/er/path-" + i).then()
                    .statusCode(200); // a user per call: the rate limit is not what this test is about
            given().auth().oauth2(token).get("/q/nope-" + i).then().statusCode(404);
        }
        given().auth().oauth2(token).get("/api/v1/jobs/j-4711/events").then().statusCode(200);
        given().auth().oauth2(token).get("/api/v1/metrics/overview").then().statusCode(200);
        given().auth().oauth2(token).get("/api/v1/diagnoses/d-" + System.nanoTime()).then().statusCode(503); // down
        given().auth().oauth2(token).get("/api/v1/me").then().statusCode(200);
        String metrics = given().get(Management.url("/q/metrics")).then().statusCode(200).extract().asString();
        java.util.Set<String> uris = new java.util.TreeSet<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("http_server_requests_seconds_count\\{[^}]*uri=\"([^\"]*)\"")
                .matcher(metrics);
        while (m.find()) {
            uris.add(m.group(1));
        }
        assertTrue(uris.contains("/api/v1/jobs/{id}/events"), uris.toString());
        assertTrue(uris.contains("/api/v1/metrics/overview"), uris.toString());
        assertTrue(uris.contains("/api/v1/diagnoses/{id}"), uris.toString());
        assertTrue(uris.contains("/api/v1/me"), uris.toString());
        assertTrue(uris.size() < 40, uris.size() + " uri tags: " + uris);
        assertTrue(uris.stream().noneMatch(u -> u.contains("nope") || u.contains("unknown-") || u.contains("j-")), uris.toString());
    }

    @Test
    void aHalfSentRequestDoesNotHoldItsConnection() throws Exception {
        try (Socket s = new Socket(base.getHost(), base.getPort())) {
            OutputStream out = s.getOutputStream();
            out.write("GET /api/v1/jobs HTTP/1.1\r\nHost: x\r\nX-Slow: ".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            s.setSoTimeout(30_000);
            InputStream in = s.getInputStream();
            long start = System.nanoTime();
            int read = in.read();
            assertEquals(-1, read, "the gateway closes the connection instead of waiting for the rest");
            assertTrue(System.nanoTime() - start < 25_000_000_000L, "closed within the idle timeout");
        }
    }

    @Test
    void aLongUriIsA414Problem() {
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs?name=" + "a".repeat(9000)).then().statusCode(414)
                .contentType("application/problem+json").body("status", equalTo(414));
    }

    /** What Netty would refuse bare (HTTP/1.0, no body) is refused by the shared filter with a problem (issue #26.5). */
    @Test
    void aHugeUriAndAHugeHeaderGetProblemBodies() {
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs?name=" + "a".repeat(70 * 1024)).then().statusCode(414)
                .contentType("application/problem+json").body("status", equalTo(414));
        given().auth().oauth2(Tokens.alice()).header("X-Big", "b".repeat(20 * 1024)).get("/api/v1/jobs").then()
                .statusCode(431).contentType("application/problem+json").body("status", equalTo(431));
        ZhCnText.assertChinese(given().header("X-Big", "b".repeat(20 * 1024))
                .header("Accept-Language", "zh-CN").get("/api/v1/me").then()
                .statusCode(431).contentType("application/problem+json").body("detail", containsString("请求头"))
                .extract().asString());
    }

    /** A percent-encoded path is the path it decodes to: it needs a token like any other, and its 401 has a body. */
    @Test
    void anEncodedApiPathIsTheApiPath() {
        for (String path : new String[] {"/%61pi/v1/me", "/%61%70%69/v1/jobs", "/api/v1/%6Ae"}) {
            given().urlEncodingEnabled(false).get(path).then().statusCode(401).contentType("application/problem+json")
                    .body("status", equalTo(401));
        }
        given().urlEncodingEnabled(false).auth().oauth2(Tokens.alice()).get("/%61pi/v1/me").then().statusCode(200)
                .body("user", equalTo("alice"));
        given().urlEncodingEnabled(false).auth().oauth2(Tokens.user("encoder").get()).get("/%61pi/v1/jobs/j-1/p%6Fds")
                .then().statusCode(200).body("service", equalTo("job"));
    }
}
