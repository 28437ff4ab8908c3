package io.jobmon.jobs.job;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

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
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The job list: tabs, filters, sorts, keyset paging, and bad parameters. Each test uses its own users. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
@WithKubernetesTestServer
class ListTest {

    @Inject
    StatusHandler statuses;

    static String user(String name) {
        return Tokens.user(name).groups("project-nlp").get();
    }

    @Test
    void pagingFollowsCursorsWithoutGapsOrRepeatsEvenWhenJobsAreAddedMeanwhile() {
        String me = "pager-" + UUID.randomUUID().toString().substring(0, 6);
        String token = user(me);
        Set<String> created = new HashSet<>();
        for (int i = 0; i < 7; i++) {
            created.add(TestJobs.submit(token));
        }
        List<String> seen = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            var req = given().auth().oauth2(token).queryParam("limit", 3);
            if (cursor != null) {
                req.queryParam("cursor", cursor);
            }
            Response r = req.get("/api/v1/jobs").then().statusCode(200).extract().response();
            seen.addAll(r.path("items.id"));
            cursor = r.path("nextCursor");
            if (pages++ == 0) {
                TestJobs.submit(token); // a newer job lands before the first page: it must not shift the others
            }
        } while (cursor != null);
        assertEquals(created, new HashSet<>(seen));
        assertEquals(seen.size(), new HashSet<>(seen).size());
    }

    @Test
    void filtersByStatusTagNameAndClusterAndSortsByName() {
        String me = "filter-" + UUID.randomUUID().toString().substring(0, 6);
        String token = user(me);
        String a = TestJobs.submit(token, TestJobs.spec(Map.of("name", "alpha-bert", "tags", List.of("nlp", "bert"))));
        String b = TestJobs.submit(token, TestJobs.spec(Map.of("name", "beta-gpt", "tags", List.of("nlp"),
                "cluster", "gpu-a")));
        String c = TestJobs.submit(token, TestJobs.spec(Map.of("name", "gamma-bert", "tags", List.of("bert"))));
        statuses.apply(TestJobs.status(a, JobStatus.RUNNING, 1, "Started")).await().indefinitely();
        statuses.apply(TestJobs.status(c, JobStatus.FAILED, 1, "OOMKilled")).await().indefinitely();

        given().auth().oauth2(token).queryParam("status", "RUNNING").queryParam("status", "FAILED")
                .queryParam("sort", "name:asc").get("/api/v1/jobs").then().statusCode(200)
                .body("items.id", equalTo(List.of(a, c)));
        given().auth().oauth2(token).queryParam("tag", "nlp").queryParam("tag", "bert").get("/api/v1/jobs")
                .then().body("items.id", equalTo(List.of(a)));
        given().auth().oauth2(token).queryParam("name", "BERT").queryParam("sort", "name:desc").get("/api/v1/jobs")
                .then().body("items.id", equalTo(List.of(c, a)));
        given().auth().oauth2(token).queryParam("cluster", "gpu-a").get("/api/v1/jobs")
                .then().body("items.id", equalTo(List.of(b)));
        given().auth().oauth2(token).queryParam("region", "cn-south").queryParam("sort", "submittedAt:asc")
                .get("/api/v1/jobs").then().body("items.id", equalTo(List.of(a, c)));
        given().auth().oauth2(token).queryParam("sort", "runSeconds:desc").queryParam("limit", 1).get("/api/v1/jobs")
                .then().body("items[0].id", equalTo(a)).body("nextCursor", not(nullValue()));
        given().auth().oauth2(token).queryParam("status", "FAILED").get("/api/v1/jobs")
                .then().body("items[0].failureReason", equalTo("OOMKilled"))
                .body("items[0].gpu", equalTo("2*A800"));
    }

    @Test
    void durationSortsPageStablyThroughTheirCursor() {
        String token = user("qsort-" + UUID.randomUUID().toString().substring(0, 6));
        for (int i = 0; i < 5; i++) {
            TestJobs.submit(token);
        }
        List<String> seen = new ArrayList<>();
        String cursor = null;
        do {
            var req = given().auth().oauth2(token).queryParam("limit", 2).queryParam("sort", "queueSeconds:desc");
            if (cursor != null) {
                req.queryParam("cursor", cursor);
            }
            Response r = req.get("/api/v1/jobs").then().statusCode(200).extract().response();
            seen.addAll(r.path("items.id"));
            cursor = r.path("nextCursor");
        } while (cursor != null);
        assertEquals(5, new HashSet<>(seen).size());
        assertEquals(5, seen.size());
    }

    @Test
    void sharedAndProjectTabsAndAdminScope() {
        String owner = "sharer-" + UUID.randomUUID().toString().substring(0, 6);
        String friend = "friend-" + UUID.randomUUID().toString().substring(0, 6);
        String shared = TestJobs.submit(user(owner));
        String project = TestJobs.submit(user(owner), TestJobs.spec(Map.of("visibility", "PROJECT")));
        TestJobs.known(Tokens.user(friend).get());
        given().auth().oauth2(user(owner)).contentType("application/json").body(Map.of("users", List.of(friend)))
                .put("/api/v1/jobs/" + shared + "/shares").then().statusCode(200);
        given().auth().oauth2(Tokens.user(friend).get()).queryParam("scope", "shared").get("/api/v1/jobs")
                .then().statusCode(200).body("items.id", equalTo(List.of(shared)));
        given().auth().oauth2(user(friend)).queryParam("scope", "project").queryParam("owner", owner)
                .get("/api/v1/jobs").then().statusCode(200).body("items.id", equalTo(List.of(project)));
        given().auth().oauth2(Tokens.admin()).queryParam("scope", "all").queryParam("owner", owner)
                .get("/api/v1/jobs").then().statusCode(200).body("items", hasSize(2));
        given().auth().oauth2(Tokens.alice()).queryParam("scope", "all").get("/api/v1/jobs").then().statusCode(403)
                .contentType("application/problem+json");
        // another tenant's admin sees nothing of t1
        given().auth().oauth2(Tokens.user("root2").tenant("t2").roles("admin", "user").get())
                .queryParam("scope", "all").queryParam("owner", owner).get("/api/v1/jobs").then().statusCode(200)
                .body("items", hasSize(0));
    }

    @Test
    void badParametersAre400ProblemsNeverServerErrors() {
        String t = Tokens.alice();
        given().auth().oauth2(t).queryParam("cursor", "garbage%%").get("/api/v1/jobs").then().statusCode(400)
                .body("errors[0].field", equalTo("cursor"));
        given().auth().oauth2(t).queryParam("cursor", "eyJzIjoibmFtZTphc2MiLCJ2IjoiYSIsImkiOiJqIiwidCI6MH0")
                .get("/api/v1/jobs").then().statusCode(400).body("errors[0].field", equalTo("cursor"));
        given().auth().oauth2(t).queryParam("status", "DONE").get("/api/v1/jobs").then().statusCode(400)
                .body("errors[0].field", equalTo("status"));
        given().auth().oauth2(t).queryParam("name", "x' OR '1'='1").get("/api/v1/jobs").then().statusCode(400)
                .body("errors[0].field", equalTo("name"));
        given().auth().oauth2(t).queryParam("project", "nlp; DROP TABLE job").get("/api/v1/jobs").then()
                .statusCode(400);
        given().auth().oauth2(t).queryParam("tag", "a/**/b").get("/api/v1/jobs").then().statusCode(400);
        given().auth().oauth2(t).queryParam("limit", "0").get("/api/v1/jobs").then().statusCode(400);
        given().auth().oauth2(t).queryParam("sort", "owner:desc").get("/api/v1/jobs").then().statusCode(400);
        given().auth().oauth2(t).queryParam("submittedTo", "tomorrow").get("/api/v1/jobs").then().statusCode(400);
        given().auth().oauth2(t).queryParam("name", "100%_match").get("/api/v1/jobs").then().statusCode(400);
        given().auth().oauth2(t).queryParam("name", "under_score").get("/api/v1/jobs").then().statusCode(200);
    }

    @Test
    void statsCountByStatusWithQueuePercentilesAndFailureReasons() {
        String token = user("stats-" + UUID.randomUUID().toString().substring(0, 6));
        String a = TestJobs.submit(token);
        String b = TestJobs.submit(token);
        TestJobs.submit(token);
        statuses.apply(TestJobs.status(a, JobStatus.RUNNING, 1, "Started")).await().indefinitely();
        statuses.apply(TestJobs.status(b, JobStatus.FAILED, 1, "ImagePullBackOff")).await().indefinitely();
        given().auth().oauth2(token).get("/api/v1/jobs/stats").then().statusCode(200)
                .body("total", equalTo(3))
                .body("byStatus.PENDING", equalTo(1))
                .body("byStatus.RUNNING", equalTo(1))
                .body("topFailureReasons[0].reason", equalTo("ImagePullBackOff"))
                .body("queueSeconds.p50", not(nullValue()));
        given().auth().oauth2(token).queryParam("scope", "all").get("/api/v1/jobs/stats").then().statusCode(403);
        given().auth().oauth2(token).queryParam("from", "later").get("/api/v1/jobs/stats").then().statusCode(400);
    }
}
