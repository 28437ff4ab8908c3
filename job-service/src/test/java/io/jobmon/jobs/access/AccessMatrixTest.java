package io.jobmon.jobs.access;

import static io.restassured.RestAssured.given;

import io.jobmon.contracts.events.JobStatus;
import io.jobmon.jobs.TestJobs;
import io.jobmon.jobs.messaging.StatusHandler;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.jobmon.testsupport.Tokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every job endpoint × every kind of caller. alice owns each job (project-nlp) and shares it with carol (project-cv);
 * bob is a project-nlp member, who sees the job only when it is PROJECT-visible; erin is a t1 user outside it;
 * root2 is the admin of tenant t2; admin is the admin of t1; the platform service (diagnosis-service's own
 * client-credentials token, role {@code service}, no tenant) reads every job and may do nothing else.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
@WithKubernetesTestServer
class AccessMatrixTest {

    enum Who {
        ANONYMOUS, OWNER, SHARED_USER, PROJECT_MEMBER_OF_PROJECT_JOB, PROJECT_MEMBER_OF_PRIVATE_JOB, OTHER_USER,
        OTHER_TENANT_ADMIN, ADMIN, PLATFORM_SERVICE
    }

    /** What an endpoint needs: to see the job, to clone it, or to act on it (owner/admin). */
    enum Needs {
        VIEW, CLONE, ACT
    }

    /** One endpoint: method, path after /api/v1/jobs/{id}, body, the state the job must be in, the success code. */
    record Endpoint(String name, String method, String path, Needs needs, JobStatus state, int ok) {
        @Override
        public String toString() {
            return name;
        }
    }

    static final List<Endpoint> ENDPOINTS = List.of(
            new Endpoint("GET detail", "GET", "", Needs.VIEW, null, 200),
            new Endpoint("GET timeline", "GET", "/timeline", Needs.VIEW, null, 200),
            new Endpoint("GET pods", "GET", "/pods", Needs.VIEW, null, 200),
            new Endpoint("GET attempts", "GET", "/attempts", Needs.VIEW, null, 200),
            new Endpoint("POST clone", "POST", "/clone", Needs.CLONE, null, 201),
            new Endpoint("POST stop", "POST", "/stop", Needs.ACT, null, 200),
            new Endpoint("POST resubmit", "POST", "/resubmit", Needs.ACT, JobStatus.FAILED, 201),
            new Endpoint("DELETE", "DELETE", "", Needs.ACT, JobStatus.FAILED, 204),
            new Endpoint("PUT tags", "PUT", "/tags", Needs.ACT, null, 200),
            new Endpoint("PUT shares", "PUT", "/shares", Needs.ACT, null, 200),
            new Endpoint("PUT visibility", "PUT", "/visibility", Needs.ACT, null, 200));

    @Inject
    StatusHandler statuses;

    static Stream<Arguments> matrix() {
        List<Arguments> out = new ArrayList<>();
        for (Endpoint e : ENDPOINTS) {
            for (Who w : Who.values()) {
                out.add(Arguments.of(e, w));
            }
        }
        return out.stream();
    }

    static int expected(Endpoint e, Who w) {
        return switch (w) {
            case ANONYMOUS -> 401;
            case OWNER, ADMIN -> e.ok();
            case SHARED_USER, PROJECT_MEMBER_OF_PROJECT_JOB -> e.needs() == Needs.ACT ? 403 : e.ok();
            case PROJECT_MEMBER_OF_PRIVATE_JOB, OTHER_USER, OTHER_TENANT_ADMIN -> 404;
            // reading only: every other method is refused by the API's permission before any job is looked at
            case PLATFORM_SERVICE -> "GET".equals(e.method()) ? e.ok() : 403;
        };
    }

    static String token(Who w) {
        return switch (w) {
            case ANONYMOUS -> null;
            case OWNER -> Tokens.alice();
            case SHARED_USER -> Tokens.carol();
            case PROJECT_MEMBER_OF_PROJECT_JOB, PROJECT_MEMBER_OF_PRIVATE_JOB -> Tokens.bob();
            case OTHER_USER -> Tokens.user("erin").get();
            case OTHER_TENANT_ADMIN -> Tokens.user("root2").tenant("t2").roles("admin", "user").get();
            case ADMIN -> Tokens.admin();
            case PLATFORM_SERVICE -> Tokens.service();
        };
    }

    static Object body(Endpoint e, Who w) {
        return switch (e.path()) {
            case "/clone" -> w == Who.SHARED_USER ? Map.of("project", "project-cv") : Map.of();
            case "/resubmit" -> Map.of("mode", "NORMAL");
            case "/tags" -> Map.of("tags", List.of("x"));
            case "/shares" -> Map.of("users", List.of("carol", "zoe"));
            case "/visibility" -> Map.of("visibility", "PROJECT");
            default -> null;
        };
    }

    @ParameterizedTest(name = "{0} as {1}")
    @MethodSource("matrix")
    void eachCallerGetsWhatTheAccessRuleAllows(Endpoint e, Who w) {
        String visibility = w == Who.PROJECT_MEMBER_OF_PROJECT_JOB ? "PROJECT" : "PRIVATE";
        String id = TestJobs.submit(Tokens.alice(), TestJobs.spec(Map.of("visibility", visibility)));
        TestJobs.known(Tokens.carol(), Tokens.user("zoe").get());
        given().auth().oauth2(Tokens.alice()).contentType("application/json").body(Map.of("users", List.of("carol")))
                .put("/api/v1/jobs/" + id + "/shares").then().statusCode(200);
        if (e.state() != null) {
            statuses.apply(TestJobs.status(id, e.state(), 1, "Error")).await().indefinitely();
        }
        RequestSpecification req = given();
        String token = token(w);
        if (token != null) {
            req = req.auth().oauth2(token);
        }
        Object body = body(e, w);
        if (body != null) {
            req = req.contentType("application/json").body(body);
        }
        int status = expected(e, w);
        var answer = req.request(e.method(), "/api/v1/jobs/" + id + e.path()).then().statusCode(status);
        if (status == 403 || status == 404) {
            answer.contentType("application/problem+json");
        }
    }

    static Stream<Arguments> collection() {
        return Stream.of(
                Arguments.of(Who.ANONYMOUS, 401, 401, 401, 401),
                Arguments.of(Who.OWNER, 200, 403, 403, 201),
                Arguments.of(Who.SHARED_USER, 200, 403, 403, 201),
                Arguments.of(Who.OTHER_USER, 200, 403, 403, 400),
                Arguments.of(Who.OTHER_TENANT_ADMIN, 200, 200, 200, 201),
                Arguments.of(Who.ADMIN, 200, 200, 200, 201),
                // a service reads jobs by id; it has no tenant to list, and may not submit
                Arguments.of(Who.PLATFORM_SERVICE, 403, 403, 403, 403));
    }

    /** The list (mine / all), the stats of all, and submitting (erin has no project group to submit to). */
    @ParameterizedTest(name = "collection endpoints as {0}")
    @MethodSource("collection")
    void collectionEndpointsFollowTheScopeRule(Who w, int listMine, int listAll, int statsAll, int submit) {
        String token = token(w);
        RequestSpecification base = token == null ? given() : given().auth().oauth2(token);
        base.get("/api/v1/jobs").then().statusCode(listMine);
        (token == null ? given() : given().auth().oauth2(token)).queryParam("scope", "all").get("/api/v1/jobs")
                .then().statusCode(listAll);
        (token == null ? given() : given().auth().oauth2(token)).queryParam("scope", "all").get("/api/v1/jobs/stats")
                .then().statusCode(statsAll);
        String project = w == Who.SHARED_USER ? "project-cv" : "project-nlp";
        (token == null ? given() : given().auth().oauth2(token)).contentType("application/json")
                .body(TestJobs.spec(Map.of("project", project))).post("/api/v1/jobs").then().statusCode(submit);
    }
}
