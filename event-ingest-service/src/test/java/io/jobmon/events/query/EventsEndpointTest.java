package io.jobmon.events.query;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.JobSnapshot;
import io.jobmon.contracts.events.Topics;
import io.jobmon.events.access.JobAccessStoreTest;
import io.jobmon.events.ingest.Store;
import io.jobmon.events.k8s.Fixtures;
import io.jobmon.testsupport.KafkaTestClient;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.jobmon.testsupport.Tokens;
import io.jobmon.testsupport.ZhCnText;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import io.restassured.response.ValidatableResponse;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** GET /api/v1/jobs/{id}/events: the access rule through the read model, order, filters and paging. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
class EventsEndpointTest {

    @Inject
    Pool pool;

    static String projectJob;
    static String privateJob;

    /** Two jobs of alice (t1, project-nlp) shared with carol, one PROJECT-visible, one PRIVATE; four events each. */
    @BeforeEach
    void seed() {
        if (projectJob != null) {
            return;
        }
        String run = UUID.randomUUID().toString().substring(0, 8);
        projectJob = "jp-" + run;
        privateJob = "jv-" + run;
        publish(JobAccessStoreTest.snapshot(projectJob, "alice", "PROJECT", List.of("carol"), 1, false));
        publish(JobAccessStoreTest.snapshot(privateJob, "alice", "PRIVATE", List.of("carol"), 1, false));
        for (String job : List.of(projectJob, privateJob)) {
            String pod = job + "-p0";
            sendEvent(job, "event-scheduled", pod, job + "-e1");
            sendEvent(job, "event-failedmount", pod, job + "-e2");
            sendEvent(job, "event-backoff-5", pod, job + "-e3");
            sendEvent(job, "event-failedscheduling-taint", job + "-p1", job + "-e4");
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> Store.count(pool,
                "SELECT count(*) FROM event WHERE job_id = ANY($1)", (Object) new String[] {projectJob, privateJob}) == 8
                && Store.count(pool, "SELECT count(*) FROM job_access WHERE job_id = ANY($1)",
                        (Object) new String[] {projectJob, privateJob}) == 2);
    }

    static void publish(JobSnapshot s) {
        KafkaTestClient.send(Topics.JOB_CHANGES, s.jobId(), CloudEvents.encode("/test", JobSnapshot.TYPE, s.jobId(), s));
    }

    static void sendEvent(String job, String fixture, String pod, String uid) {
        Store.send("c1/team-nlp/" + pod, Fixtures.record("c1", "ADDED", Fixtures.retarget(fixture, job, pod, uid, 100), job));
    }

    static ValidatableResponse get(String token, String job, String query) {
        var req = given();
        if (token != null) {
            req = req.auth().oauth2(token);
        }
        return req.get("/api/v1/jobs/" + job + "/events" + query).then();
    }

    @Test
    void aQueryParameterTheEndpointDoesNotTakeIsA400NamingIt() {
        get(Tokens.alice(), projectJob, "?reasn=BackOff").statusCode(400).contentType("application/problem+json")
                .body("errors[0].field", equalTo("reasn")).body("errors[0].code", equalTo("field.unknown-parameter"));
    }

    @Test
    void anonymousCallersGet401() {
        get(null, projectJob, "").statusCode(401).contentType("application/problem+json");
    }

    @Test
    void theOwnerSeesTheEventsInTimeOrder() {
        get(Tokens.alice(), projectJob, "").statusCode(200)
                .body("items", hasSize(4))
                .body("items.reason", contains("Scheduled", "FailedMount", "FailedScheduling", "BackOff"))
                .body("items[3].count", equalTo(5))
                .body("items[3].pod", equalTo(projectJob + "-p0"))
                .body("items[3].object.fieldPath", equalTo("spec.containers{trainer}"))
                .body("nextCursor", nullValue());
    }

    @Test
    void aUserTheJobIsSharedWithSeesIt() {
        get(Tokens.carol(), privateJob, "").statusCode(200).body("items", hasSize(4));
    }

    @Test
    void aProjectMemberSeesAProjectJobButNotAPrivateOne() {
        get(Tokens.bob(), projectJob, "").statusCode(200).body("items", hasSize(4));
        get(Tokens.bob(), privateJob, "").statusCode(404).contentType("application/problem+json");
    }

    @Test
    void anotherUserOfTheTenantGets404() {
        get(Tokens.user("erin").get(), projectJob, "").statusCode(404);
    }

    @Test
    void anotherTenantsAdminGets404() {
        get(Tokens.user("root").tenant("t2").roles("admin", "user").get(), projectJob, "").statusCode(404);
        get(Tokens.dave(), projectJob, "").statusCode(404);
    }

    @Test
    void theTenantsAdminSeesEveryJob() {
        get(Tokens.admin(), privateJob, "").statusCode(200).body("items", hasSize(4));
    }

    @Test
    void anUnknownJobIs404() {
        get(Tokens.admin(), "no-such-job", "").statusCode(404).body("title", equalTo("Not Found"));
    }

    @Test
    void filtersNarrowTheList() {
        get(Tokens.alice(), projectJob, "?type=Normal").statusCode(200).body("items.reason", contains("Scheduled"));
        get(Tokens.alice(), projectJob, "?type=warning&reason=BackOff").statusCode(200).body("items", hasSize(1));
        get(Tokens.alice(), projectJob, "?pod=" + projectJob + "-p1").statusCode(200)
                .body("items.reason", contains("FailedScheduling"));
        get(Tokens.alice(), projectJob, "?from=2025-03-04T09:02:09Z&to=2025-03-04T09:09:00Z").statusCode(200)
                .body("items.reason", contains("FailedMount", "FailedScheduling"));
    }

    @Test
    void pagesFollowTheCursor() {
        String cursor = get(Tokens.alice(), projectJob, "?limit=3").statusCode(200).body("items", hasSize(3))
                .body("nextCursor", notNullValue()).extract().path("nextCursor");
        get(Tokens.alice(), projectJob, "?limit=3&cursor=" + cursor).statusCode(200)
                .body("items.reason", contains("BackOff")).body("nextCursor", nullValue());
    }

    @Test
    void eachReasonHasItsCodeAndAnExplanationInTheReadersLanguageBesideKubernetesOwnMessage() {
        ZhCnText.assertChinese(given().auth().oauth2(Tokens.alice()).header("Accept-Language", "zh-CN")
                .get("/api/v1/jobs/" + projectJob + "/events").then().statusCode(200)
                .body("items[2].reason", equalTo("FailedScheduling"))
                .body("items[2].reasonCode", equalTo("unschedulable"))
                .body("items[2].reasonExplanation", org.hamcrest.Matchers.startsWith("暂无节点可以容纳该 Pod"))
                .body("items[2].message", org.hamcrest.Matchers.containsString("untolerated taint"))
                .body("items[3].reasonCode", equalTo("crash-loop"))
                .body("items[1].reasonCode", equalTo("volume-mount-failed"))
                .body("items[0].time", org.hamcrest.Matchers.matchesPattern(
                        "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z"))
                .extract().asString());
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + projectJob + "/events").then()
                .body("items[2].reasonExplanation", org.hamcrest.Matchers.startsWith("No node can take the pod"));
    }

    @Test
    void aProblemReadsInChineseAndUnknownJobsReadAsEverywhere() {
        given().auth().oauth2(Tokens.alice()).header("Accept-Language", "zh").queryParam("limit", "abc")
                .get("/api/v1/jobs/" + projectJob + "/events").then().statusCode(400)
                .body("title", equalTo("请求无效")).body("errors[0].code", equalTo("field.limit"));
        get(Tokens.alice(), "no-such-job", "").statusCode(404).body("detail", equalTo("no job no-such-job"))
                .body("type", equalTo("https://jobmon.io/problems/not-found"));
    }

    @Test
    void invalidParametersAre400NamingTheField() {
        get(Tokens.alice(), projectJob, "?limit=501").statusCode(400).body("errors[0].field", equalTo("limit"));
        get(Tokens.alice(), projectJob, "?limit=abc").statusCode(400).body("errors[0].field", equalTo("limit"));
        get(Tokens.alice(), projectJob, "?type=Error").statusCode(400).body("errors[0].field", equalTo("type"));
        get(Tokens.alice(), projectJob, "?from=yesterday").statusCode(400).body("errors[0].field", equalTo("from"));
        get(Tokens.alice(), projectJob, "?cursor=%25%25").statusCode(400).body("errors[0].field", equalTo("cursor"));
    }
}
