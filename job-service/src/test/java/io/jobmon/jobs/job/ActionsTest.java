package io.jobmon.jobs.job;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.jobmon.contracts.events.JobStatus;
import io.jobmon.jobs.TestJobs;
import io.jobmon.jobs.job.service.StopSweeper;
import io.jobmon.jobs.messaging.StatusHandler;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.jobmon.testsupport.Tokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.quarkus.test.kubernetes.client.KubernetesTestServer;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The rules of every action: stop, delete, batch delete, resubmit, clone, tags, shares, visibility. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
@WithKubernetesTestServer
class ActionsTest {

    @Inject
    StatusHandler statuses;

    @Inject
    StopSweeper sweeper;

    @KubernetesTestServer
    KubernetesServer mockServer;

    void report(String id, JobStatus status, long seq, String reason) {
        statuses.apply(TestJobs.status(id, status, seq, reason)).await().indefinitely();
    }

    @Test
    void stoppingAQueuedJobReleasesItAtOnceAndDeletesItsWorkloadInTheForeground() throws Exception {
        String id = TestJobs.submit(Tokens.alice(), TestJobs.spec(Map.of("cluster", "gpu-a")));
        assertNotNull(mockServer.getClient().batch().v1().jobs().inNamespace("train").withName(id).get());
        given().auth().oauth2(Tokens.alice()).post("/api/v1/jobs/" + id + "/stop").then().statusCode(200)
                .body("status", equalTo("STOPPED")).body("reason", equalTo("StoppedByUser"));
        var delete = mockServer.getLastRequest();
        org.junit.jupiter.api.Assertions.assertEquals("DELETE", delete.getMethod());
        org.junit.jupiter.api.Assertions.assertTrue(delete.getPath().endsWith("/namespaces/train/jobs/" + id));
        org.junit.jupiter.api.Assertions.assertTrue(delete.getUtf8Body().contains("\"propagationPolicy\":\"Foreground\""),
                delete.getUtf8Body());
        assertNull(mockServer.getClient().batch().v1().jobs().inNamespace("train").withName(id).get());
        given().auth().oauth2(Tokens.alice()).post("/api/v1/jobs/" + id + "/stop").then().statusCode(409);
    }

    @Test
    void stoppingARunningJobGoesThroughStoppingUntilTheClusterOrTheSweeperEndsIt() {
        String a = TestJobs.submit(Tokens.alice());
        report(a, JobStatus.RUNNING, 1, "Started");
        given().auth().oauth2(Tokens.alice()).post("/api/v1/jobs/" + a + "/stop").then().statusCode(200)
                .body("status", equalTo("STOPPING"));
        report(a, JobStatus.FAILED, 2, "Error");
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + a).then().body("status", equalTo("STOPPED"));

        String b = TestJobs.submit(Tokens.alice());
        report(b, JobStatus.RUNNING, 1, "Started");
        given().auth().oauth2(Tokens.alice()).post("/api/v1/jobs/" + b + "/stop").then().body("status", equalTo("STOPPING"));
        sweeper.sweepOnce(Instant.now().plusSeconds(1)).await().indefinitely();
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + b).then().body("status", equalTo("STOPPED"))
                .body("finishedAt", notNullValue());
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + b + "/timeline").then()
                .body("items.status", contains("PENDING", "RUNNING", "STOPPING", "STOPPED"));
    }

    @Test
    void onlyAFinalJobMayBeDeletedAndBatchDeleteAnswersPerId() {
        String running = TestJobs.submit(Tokens.alice());
        report(running, JobStatus.RUNNING, 1, "Started");
        given().auth().oauth2(Tokens.alice()).delete("/api/v1/jobs/" + running).then().statusCode(409)
                .contentType("application/problem+json");
        String done = TestJobs.submit(Tokens.alice());
        report(done, JobStatus.SUCCEEDED, 1, "Completed");
        String done2 = TestJobs.submit(Tokens.alice());
        report(done2, JobStatus.FAILED, 1, "Error");
        String carols = TestJobs.submit(Tokens.carol(), TestJobs.spec(Map.of("project", "project-cv")));
        given().auth().oauth2(Tokens.alice()).delete("/api/v1/jobs/" + done).then().statusCode(204);
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + done).then().statusCode(404);
        given().auth().oauth2(Tokens.alice()).contentType(ContentType.JSON)
                .body(Map.of("ids", List.of(done2, running, carols, "j-nope"))).post("/api/v1/jobs/batch-delete")
                .then().statusCode(200)
                .body("results.status", contains(204, 409, 404, 404));
        given().auth().oauth2(Tokens.alice()).contentType(ContentType.JSON).body(Map.of("ids", List.of()))
                .post("/api/v1/jobs/batch-delete").then().statusCode(400);
    }

    @Test
    void resubmitNormalAndDebugMakeNewAttemptsLinkedToTheOld() {
        String id = TestJobs.submit(Tokens.alice(), TestJobs.spec(Map.of("supportsRestart", true, "maxRetries", 2)));
        given().auth().oauth2(Tokens.alice()).contentType(ContentType.JSON).body(Map.of())
                .post("/api/v1/jobs/" + id + "/resubmit").then().statusCode(409);
        report(id, JobStatus.FAILED, 1, "Error");
        String again = given().auth().oauth2(Tokens.alice()).contentType(ContentType.JSON).body(Map.of("mode", "NORMAL"))
                .post("/api/v1/jobs/" + id + "/resubmit").then().statusCode(201)
                .body("retry.previousId", equalTo(id)).body("retry.rootId", equalTo(id))
                .body("retry.attempt", equalTo(2)).body("retry.cause", equalTo("USER"))
                .body("spec.command", contains("python", "train.py")).extract().path("id");
        report(again, JobStatus.FAILED, 1, "Error");
        given().auth().oauth2(Tokens.alice()).contentType(ContentType.JSON).body(Map.of("mode", "DEBUG"))
                .post("/api/v1/jobs/" + again + "/resubmit").then().statusCode(201)
                .body("retry.attempt", equalTo(3)).body("retry.cause", equalTo("USER_DEBUG"))
                .body("spec.command", contains("sleep", "infinity"))
                .body("spec.resources.gpusPerReplica", equalTo(2))
                .body("spec.autoFaultHandling", equalTo(false));
        given().auth().oauth2(Tokens.alice()).contentType(ContentType.JSON)
                .body(Map.of("mode", "DEBUG", "debugCommand", List.of("bash", "-c", "sleep 3600")))
                .post("/api/v1/jobs/" + again + "/resubmit").then().statusCode(201)
                .body("spec.command", contains("bash", "-c", "sleep 3600"));
        given().auth().oauth2(Tokens.alice()).contentType(ContentType.JSON).body(Map.of("mode", "LATER"))
                .post("/api/v1/jobs/" + again + "/resubmit").then().statusCode(400);
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + id + "/attempts").then().statusCode(200)
                .body("attempts", hasSize(4)).body("maxRetries", equalTo(2)).body("retriesUsed", equalTo(0));
    }

    @Test
    void aSharedUserMayCloneButVolumesOfAProjectTheyAreNotInAreDroppedWithAWarning() {
        String id = TestJobs.submit(Tokens.alice(), TestJobs.spec(Map.of("volumes", List.of(
                Map.of("name", "data", "claimName", "nlp-data", "mountPath", "/data")))));
        TestJobs.known(Tokens.carol());
        given().auth().oauth2(Tokens.alice()).contentType(ContentType.JSON).body(Map.of("users", List.of("carol")))
                .put("/api/v1/jobs/" + id + "/shares").then().statusCode(200).body("shares", contains("carol"));
        // carol is not in project-nlp: she must take the clone to her own project, and loses the volume
        given().auth().oauth2(Tokens.carol()).contentType(ContentType.JSON).body(Map.of())
                .post("/api/v1/jobs/" + id + "/clone").then().statusCode(400)
                .body("errors[0].field", equalTo("project"));
        given().auth().oauth2(Tokens.carol()).contentType(ContentType.JSON)
                .body(Map.of("project", "project-cv", "name", "my-copy"))
                .post("/api/v1/jobs/" + id + "/clone").then().statusCode(201)
                .body("owner", equalTo("carol")).body("name", equalTo("my-copy"))
                .body("retry.clonedFrom", equalTo(id)).body("spec.volumes", hasSize(0))
                .body("warnings[0]", containsString("nlp-data"));
        // bob is in project-nlp: his clone keeps the volume (once he can see the job)
        given().auth().oauth2(Tokens.bob()).contentType(ContentType.JSON).body(Map.of())
                .post("/api/v1/jobs/" + id + "/clone").then().statusCode(404);
        given().auth().oauth2(Tokens.alice()).contentType(ContentType.JSON).body(Map.of("visibility", "PROJECT"))
                .put("/api/v1/jobs/" + id + "/visibility").then().statusCode(200).body("visibility", equalTo("PROJECT"));
        given().auth().oauth2(Tokens.bob()).contentType(ContentType.JSON).body(Map.of())
                .post("/api/v1/jobs/" + id + "/clone").then().statusCode(201)
                .body("spec.volumes", hasSize(1)).body("warnings", org.hamcrest.Matchers.nullValue());
        // a shared user may not act on the original
        given().auth().oauth2(Tokens.carol()).post("/api/v1/jobs/" + id + "/stop").then().statusCode(403);
    }

    @Test
    void tagsAreValidatedAndReplaced() {
        String id = TestJobs.submit(Tokens.alice());
        given().auth().oauth2(Tokens.alice()).contentType(ContentType.JSON)
                .body(Map.of("tags", List.of("ok", "no spaces", "x".repeat(40))))
                .put("/api/v1/jobs/" + id + "/tags").then().statusCode(400)
                .body("errors.field", contains("tags[1]", "tags[2]"));
        given().auth().oauth2(Tokens.alice()).contentType(ContentType.JSON)
                .body(Map.of("tags", List.of("bert", "大模型", "bert")))
                .put("/api/v1/jobs/" + id + "/tags").then().statusCode(200).body("tags", contains("bert", "大模型"));
        given().auth().oauth2(Tokens.alice()).contentType(ContentType.JSON)
                .body(Map.of("tags", java.util.Collections.nCopies(21, "t")))
                .put("/api/v1/jobs/" + id + "/tags").then().statusCode(400);
        given().auth().oauth2(Tokens.alice()).contentType(ContentType.JSON).body(Map.of("visibility", "PUBLIC"))
                .put("/api/v1/jobs/" + id + "/visibility").then().statusCode(400)
                .body("errors[0].field", equalTo("visibility"));
        given().auth().oauth2(Tokens.alice()).contentType(ContentType.JSON).body(Map.of("users", List.of("bad user")))
                .put("/api/v1/jobs/" + id + "/shares").then().statusCode(400);
        TestJobs.known(Tokens.bob());
        given().auth().oauth2(Tokens.alice()).contentType(ContentType.JSON).body(Map.of("users", List.of("alice", "bob")))
                .put("/api/v1/jobs/" + id + "/shares").then().statusCode(200).body("shares", contains("bob"))
                .body("version", not(equalTo(1)));
    }
}
