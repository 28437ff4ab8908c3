package io.jobmon.testsupport;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.startsWith;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * What every jobmon service promises before it has any feature: health that asks its PostgreSQL and Kafka,
 * Prometheus metrics, OpenAPI, and an {@code /api} that wants a valid token and answers in problem+json.
 * A service's {@code FoundationTest} extends this with its test resources.
 */
public abstract class FoundationChecks {

    private final String service;

    protected FoundationChecks(String service) {
        this.service = service;
    }

    /** A URL on the service's management interface (its own port: probes, Prometheus, OpenAPI). */

    /** Whether the service has a database and a broker; the gateway has neither. */
    protected boolean hasDependencies() {
        return true;
    }

    @Test
    void readinessAsksTheDatabaseAndTheBroker() {
        var ready = given().when().get(Management.url("/q/health/ready")).then().statusCode(200)
                .body("status", equalTo("UP"));
        if (hasDependencies()) {
            ready.body("checks.find { it.name == 'Dependencies' }.data.postgresql", equalTo("UP"))
                    .body("checks.find { it.name == 'Dependencies' }.data.kafka", equalTo("UP"));
        }
    }

    @Test
    void livenessAndPrometheusMetricsAndOpenApiAreServedOnTheManagementPortOnly() {
        given().get(Management.url("/q/health/live")).then().statusCode(200);
        given().get(Management.url("/q/metrics")).then().statusCode(200).body(containsString("jvm_memory_used_bytes"));
        given().get(Management.url("/q/openapi?format=json")).then().statusCode(200).body("openapi", startsWith("3."));
        for (String path : new String[] {"/q/metrics", "/q/health/ready", "/q/openapi"}) {
            given().get(path).then().statusCode(404).contentType("application/problem+json");
        }
    }

    /**
     * What the HTTP layer refuses before any resource runs answers in problem+json too (sent raw: no client library
     * would send these). Not covered: a path whose percent-encoding does not decode ({@code %zz}) is refused by
     * Vert.x below every handler an application can register, with an empty 400.
     */
    @Test
    void malformedRequestsGetProblemBodies() throws Exception {
        java.net.URI api = java.net.URI.create(io.restassured.RestAssured.baseURI + ":" + io.restassured.RestAssured.port);
        for (String request : new String[] {
                "GET /api/v1/jobs HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Evil: a\u0000b\r\n\r\n",
                "GET /api/v1/jobs?name=" + "a".repeat(9000) + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"}) {
            try (java.net.Socket s = new java.net.Socket(api.getHost(), api.getPort())) {
                s.setSoTimeout(20_000);
                s.getOutputStream().write(request.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
                s.getOutputStream().flush();
                String head = new String(s.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.ISO_8859_1);
                org.junit.jupiter.api.Assertions.assertTrue(head.startsWith("HTTP/1.1 4"), head);
                org.junit.jupiter.api.Assertions.assertTrue(head.toLowerCase().contains("application/problem+json"), head);
            }
        }
    }

    @Test
    void dotSegmentsAndNulBytesAreRefusedBeforeRouting() {
        for (String path : new String[] {"/api/v1/jobs/../../../q/metrics", "/api/v1/jobs/%2e%2e/%2E%2E/q/metrics",
                "/api/v1/jobs/a%2Fb", "/api/v1/jobs/j-1%00"}) {
            given().urlEncodingEnabled(false).auth().oauth2(Tokens.alice()).get(path).then().statusCode(400)
                    .contentType("application/problem+json")
                    .body("type", startsWith("https://jobmon.io/problems/"));
        }
    }

    @Test
    void apiWithoutATokenIs401Problem() {
        given().get("/api/v1/jobs/j-1").then().statusCode(401)
                .contentType("application/problem+json")
                .header("WWW-Authenticate", startsWith("Bearer"))
                .body("status", equalTo(401));
    }

    @Test
    void anExpiredTokenIs401Problem() {
        String expired = Tokens.user("alice").expiresIn(Duration.ofSeconds(-120)).get();
        given().auth().oauth2(expired).get("/api/v1/jobs/j-1").then().statusCode(401)
                .contentType("application/problem+json");
    }

    @Test
    void aTokenIssuedForAnotherAudienceIs401() {
        given().auth().oauth2(Tokens.user("alice").audience("some-other-app").get()).get("/api/v1/jobs/j-1").then()
                .statusCode(401).contentType("application/problem+json");
    }

    @Test
    void aUserWithoutThePlatformRoleIs403Problem() {
        given().auth().oauth2(Tokens.user("mallory").roles("offline_access").get()).get("/api/v1/jobs/j-1").then()
                .statusCode(403).contentType("application/problem+json");
    }

    @Test
    void aTokenWithABadSignatureIs401Problem() {
        String valid = Tokens.alice();
        String tampered = valid.substring(0, valid.lastIndexOf('.') + 1) + "AAAA" + valid.substring(valid.lastIndexOf('.') + 5);
        given().auth().oauth2(tampered).get("/api/v1/jobs/j-1").then().statusCode(401);
    }

    @Test
    void anUnknownPathIs404ProblemFromThisService() {
        given().auth().oauth2(Tokens.alice()).get("/api/v1/no-such-thing").then().statusCode(404)
                .contentType("application/problem+json")
                .header("X-Jobmon-Service", service)
                .body("status", equalTo(404))
                .body("title", equalTo("Not Found"));
    }

    @Test
    void aBodyOverTheLimitIs413Problem() {
        byte[] body = new byte[11 * 1024 * 1024];
        java.util.Arrays.fill(body, (byte) 'x');
        given().auth().oauth2(Tokens.alice()).contentType("application/json").body(body)
                .post("/api/v1/jobs").then().statusCode(413)
                .contentType("application/problem+json");
    }

    @Test
    void theRequestIdIsEchoedOrCreated() {
        given().header("X-Request-Id", "req-42").get("/api/v1/no-such-thing").then().header("X-Request-Id", "req-42");
        given().get("/api/v1/no-such-thing").then().header("X-Request-Id", notNullValue());
        given().header("X-Request-Id", "bad id with spaces").get("/api/v1/no-such-thing")
                .then().header("X-Request-Id", org.hamcrest.Matchers.not(containsString(" ")));
    }
}
