package io.jobmon.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import org.jose4j.jwk.RsaJwkGenerator;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The whole suite as a developer runs it: {@code ./jobmon up} (real PostgreSQL, Kafka broker, Keycloak and the
 * six services), every check through the gateway with real Keycloak tokens, then {@code ./jobmon down} and
 * nothing left listening.
 */
@Order(1)
class StackIT {

    @RegisterExtension
    static final SharedStack.Use STACK = SharedStack.use(SharedStack.SIM);

    private static LocalStack stack;
    private static RealmTestKey realmKey;
    private static String alice;

    @BeforeAll
    static void up() throws Exception {
        stack = STACK.get();
        realmKey = RealmTestKey.register(stack.keycloak(), "admin", "admin");
        alice = passwordGrant("alice", "alice");
    }

    @AfterAll
    static void down() {
        if (realmKey != null) {
            realmKey.unregister();
        }
    }

    // ---- identity: Keycloak's tokens -------------------------------------------------------------------

    @Test
    void keycloakTokensCarryTheClaimsTheServicesRead() {
        JsonNode a = Http.jwtClaims(alice);
        assertEquals(stack.issuer(), a.get("iss").asText());
        assertEquals("alice", a.get("preferred_username").asText());
        assertEquals("t1", a.get("tenant").asText());
        assertEquals(List.of("project-nlp"), strings(a.get("groups")));
        assertTrue(strings(a.path("realm_access").path("roles")).contains("user"));

        JsonNode dave = Http.jwtClaims(passwordGrant("dave", "dave"));
        assertEquals("t2", dave.get("tenant").asText());
        assertTrue(strings(dave.path("groups")).isEmpty());

        JsonNode admin = Http.jwtClaims(passwordGrant("admin", "admin"));
        assertTrue(strings(admin.path("realm_access").path("roles")).containsAll(List.of("admin", "user")));
    }

    @Test
    void issuerIsTheSameWhateverHostFetchesTheToken() {
        HttpResponse<String> r = Http.postForm("http://127.0.0.1:" + stack.keycloakPort + "/realms/jobmon/protocol/openid-connect/token",
                Map.of("grant_type", "password", "client_id", "jobmon-ui", "username", "bob", "password", "bob"));
        assertEquals(200, r.statusCode(), r.body());
        assertEquals(stack.issuer(), Http.jwtClaims(Http.json(r).get("access_token").asText()).get("iss").asText());
    }

    // ---- the gateway's token check ---------------------------------------------------------------------

    @Test
    void requestWithoutTokenIsRejected() {
        assertEquals(401, Http.get(stack.gateway() + "/api/v1/me", null).statusCode());
        assertEquals(401, Http.get(stack.gateway() + "/api/v1/jobs", null).statusCode());
    }

    @Test
    void tokenMintedWithARealmKeyIsAccepted() throws Exception {
        // The control for the three rejections below: the same kind of token, nothing wrong with it.
        HttpResponse<String> r = Http.get(stack.gateway() + "/api/v1/me", realmKey.sign(claims(stack.issuer(), 300)));
        assertEquals(200, r.statusCode(), r.body());
        assertEquals("e2e-minted", Http.json(r).get("user").asText());
    }

    @Test
    void tokenWithABadSignatureIsRejected() throws Exception {
        // Right issuer, not expired, the kid of a key the realm publishes, but signed by another key.
        String forged = RealmTestKey.sign(claims(stack.issuer(), 300), RsaJwkGenerator.generateJwk(2048).getPrivateKey(),
                realmKey.kid);
        assertEquals(401, Http.get(stack.gateway() + "/api/v1/me", forged).statusCode());
        assertEquals(401, Http.get(stack.gateway() + "/api/v1/jobs", forged).statusCode());
    }

    @Test
    void tokenFromAnotherIssuerIsRejected() throws Exception {
        String other = realmKey.sign(claims(stack.keycloak() + "/realms/other", 300));
        assertEquals(401, Http.get(stack.gateway() + "/api/v1/me", other).statusCode());
    }

    @Test
    void expiredTokenIsRejected() throws Exception {
        String expired = realmKey.sign(claims(stack.issuer(), -600));
        assertEquals(401, Http.get(stack.gateway() + "/api/v1/me", expired).statusCode());
    }

    // ---- the gateway's own answers ---------------------------------------------------------------------

    @Test
    void meShowsWhoAliceIs() {
        HttpResponse<String> r = Http.get(stack.gateway() + "/api/v1/me", alice);
        assertEquals(200, r.statusCode(), r.body());
        JsonNode me = Http.json(r);
        assertEquals("alice", me.get("user").asText());
        assertEquals("t1", me.get("tenant").asText());
        assertEquals(List.of("project-nlp"), strings(me.get("groups")));
        assertTrue(strings(me.get("roles")).contains("user"), r.body());
    }

    @Test
    void unknownApiPathIsAProblem404() {
        HttpResponse<String> r = Http.get(stack.gateway() + "/api/v1/nope", alice);
        assertEquals(404, r.statusCode(), r.body());
        String type = r.headers().firstValue("Content-Type").orElse("");
        assertTrue(type.startsWith("application/problem+json"), "Content-Type: " + type);
    }

    @Test
    void gatewayReadinessReportsEveryServiceUp() {
        assertEquals(404, Http.get(stack.gateway() + "/q/health/ready", null).statusCode(),
                "the API port serves no management endpoint");
        HttpResponse<String> r = Http.get(stack.gatewayManagement() + "/q/health/ready", null);
        assertEquals(200, r.statusCode(), r.body());
        JsonNode health = Http.json(r);
        assertEquals("UP", health.get("status").asText(), r.body());
        Map<String, String> downstream = new LinkedHashMap<>();
        for (JsonNode check : health.get("checks")) {
            check.path("data").fields().forEachRemaining(e -> downstream.put(e.getKey(), e.getValue().asText()));
        }
        assertEquals("false", downstream.remove("degraded"), "no service degraded: " + r.body());
        assertTrue(downstream.size() >= 5, "expected one entry per service behind the gateway: " + r.body());
        downstream.forEach((name, state) -> assertEquals("UP", state, name + " in " + r.body()));
    }

    // ---- every service, reached through the gateway ----------------------------------------------------

    @ParameterizedTest(name = "{0} is answered by {1}")
    @CsvSource({
            "/api/v1/jobs, job-service",
            "/api/v1/jobs/x/events, event-ingest-service",
            "/api/v1/jobs/x/logs, log-service",
            "/api/v1/jobs/x/metrics, metrics-service",
            "/api/v1/jobs/x/diagnoses, diagnosis-service"})
    void everyServiceAnswersThroughTheGateway(String path, String module) {
        HttpResponse<String> r = Http.get(stack.gateway() + path, alice);
        int status = r.statusCode();
        assertFalse(status == 502 || status == 503 || status == 504, path + " -> " + status + " " + r.body());
        assertFalse(status == 401, path + " rejected a valid token: " + r.body());
        // The service names itself; the gateway does not add its own name to what it forwards.
        List<String> named = r.headers().allValues("X-Jobmon-Service");
        assertEquals(List.of(module), named, path + " -> " + status);
    }

    // ---- helpers ---------------------------------------------------------------------------------------

    private static String passwordGrant(String user, String password) {
        HttpResponse<String> r = Http.postForm(stack.issuer() + "/protocol/openid-connect/token",
                Map.of("grant_type", "password", "client_id", "jobmon-ui", "username", user, "password", password));
        assertEquals(200, r.statusCode(), "password grant for " + user + ": " + r.body());
        String token = Http.json(r).path("access_token").asText(null);
        assertNotNull(token, r.body());
        return token;
    }

    /** A token's claims as Keycloak would write them for a user of tenant t1, valid for the given seconds. */
    private static JwtClaims claims(String issuer, int validSeconds) {
        JwtClaims c = new JwtClaims();
        c.setIssuer(issuer);
        c.setSubject(UUID.randomUUID().toString());
        c.setIssuedAt(NumericDate.fromSeconds(NumericDate.now().getValue() + Math.min(0, validSeconds) - 60));
        c.setExpirationTime(NumericDate.fromSeconds(NumericDate.now().getValue() + validSeconds));
        c.setGeneratedJwtId();
        c.setClaim("typ", "Bearer");
        c.setClaim("azp", "jobmon-ui");
        c.setAudience("jobmon"); // the services accept only tokens meant for jobmon (JOBMON_OIDC_AUDIENCE)
        c.setClaim("preferred_username", "e2e-minted");
        c.setClaim("tenant", "t1");
        c.setStringListClaim("groups", "project-nlp");
        c.setClaim("realm_access", Map.of("roles", List.of("user")));
        return c;
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        if (array != null) {
            array.forEach(n -> out.add(n.asText()));
        }
        return out;
    }
}
