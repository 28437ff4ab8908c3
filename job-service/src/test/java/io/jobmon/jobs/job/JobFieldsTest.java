package io.jobmon.jobs.job;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;

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
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Fields the pages rely on: updatedAt, a search box that takes a name or an id, a cluster that fell silent. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
@WithKubernetesTestServer
class JobFieldsTest {

    @Inject
    StatusHandler statuses;

    @Inject
    Pool pool;

    @Test
    void rowsAndDetailCarryUpdatedAtThatFollowsEveryChange() {
        String id = TestJobs.submit(Tokens.alice());
        String before = given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + id).then()
                .body("updatedAt", notNullValue())
                // no Alertmanager configured here: the count is unknown, written as null (not left out)
                .body("$", org.hamcrest.Matchers.hasKey("alertsFiring"))
                .body("alertsFiring", org.hamcrest.Matchers.nullValue()).extract().path("updatedAt");
        statuses.apply(TestJobs.status(id, JobStatus.RUNNING, 1, null)).await().indefinitely();
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + id).then()
                .body("updatedAt", not(equalTo(before)));
        given().auth().oauth2(Tokens.alice()).queryParam("name", id).get("/api/v1/jobs").then()
                .body("items[0].updatedAt", notNullValue());
    }

    @Test
    void theSearchBoxMatchesAPartOfTheNameOrAJobId() {
        String me = "seeker-" + UUID.randomUUID().toString().substring(0, 6);
        String token = Tokens.user(me).groups("project-nlp").get();
        String bert = TestJobs.submit(token, TestJobs.spec(Map.of("name", "Bert-Large-SFT")));
        String other = TestJobs.submit(token, TestJobs.spec(Map.of("name", "llama")));
        given().auth().oauth2(token).queryParam("name", "large").get("/api/v1/jobs").then()
                .body("items.id", equalTo(List.of(bert)));
        given().auth().oauth2(token).queryParam("name", other).get("/api/v1/jobs").then()
                .body("items.id", equalTo(List.of(other)));
        given().auth().oauth2(Tokens.admin()).queryParam("scope", "all").queryParam("name", other).get("/api/v1/jobs")
                .then().body("items.id", equalTo(List.of(other)));
    }

    @Test
    void aJobItsClusterHasNotReportedOnSaysSoInsteadOfSubmittedForever() {
        String id = TestJobs.submit(Tokens.alice());
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + id).then()
                .body("message", equalTo("submitted, waiting for the cluster"));
        pool.preparedQuery("UPDATE job SET submitted_at = now() - interval '15 minutes' WHERE id = $1")
                .execute(Tuple.of(id)).await().indefinitely();
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + id).then().body("status", equalTo("PENDING"))
                .body("message", equalTo("no report from cluster ext-b for 15 min"));
        given().auth().oauth2(Tokens.alice()).header("Accept-Language", "zh-CN").queryParam("name", id)
                .get("/api/v1/jobs").then().body("items[0].message", equalTo("集群 ext-b 已 15 分钟没有上报"));
        // once the cluster reports, its word counts
        statuses.apply(TestJobs.status(id, JobStatus.PENDING, 1, "Scheduled")).await().indefinitely();
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + id).then()
                .body("message", equalTo("message Scheduled"));
    }
}
