package io.jobmon.events.query;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;

import com.fasterxml.jackson.databind.node.ObjectNode;
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
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Events about nodes on {@code jobmon.k8s.raw} (kubelet's SystemOOM and Rebooted, the node controller's NodeNotReady,
 * node-problem-detector's KernelOops) are kept per node, and a job's events include those of the node its pod ran on
 * while it ran there, flagged with the node. The platform's service token reads them like the job's owner; another
 * tenant still gets 404.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
class NodeEventsTest {

    @Inject
    Pool pool;

    static String job;
    static String node;

    /**
     * alice's job with one pod on its own node, created 09:00, failed 10:42:17 (2025-03-04); around it, events of that
     * node (06:00 Rebooted: before the pod; 09:39:30 KernelOops, 09:40 SystemOOM: while it ran; 12:00 SystemOOM: after)
     * and of another node (09:41 NodeNotReady).
     */
    @BeforeEach
    void seed() {
        if (job != null) {
            return;
        }
        String run = UUID.randomUUID().toString().substring(0, 8);
        job = "jn-" + run;
        node = "gpu-node-03-" + run;
        String other = "gpu-node-09-" + run;
        JobSnapshot s = JobAccessStoreTest.snapshot(job, "alice", "PRIVATE", List.of(), 1, false);
        KafkaTestClient.send(Topics.JOB_CHANGES, job, CloudEvents.encode("/test", JobSnapshot.TYPE, job, s));
        String pod = job + "-0";
        ObjectNode p = (ObjectNode) Fixtures.retarget("pod-failed-error-1", job, pod, UUID.randomUUID().toString(), 10);
        ((ObjectNode) p.get("spec")).put("nodeName", node);
        Store.send("c1/team-nlp/" + pod, Fixtures.record("c1", "ADDED", p, job));
        Store.send("c1/team-nlp/" + pod, Fixtures.record("c1", "ADDED",
                Fixtures.retarget("event-scheduled", job, pod, job + "-e1", 11), job));
        nodeEvent("event-node-rebooted", node, run + "-n1", null);
        nodeEvent("event-node-kerneloops", node, run + "-n2", null);
        nodeEvent("event-node-systemoom", node, run + "-n3", null);
        nodeEvent("event-node-systemoom", node, run + "-n4", "2025-03-04T12:00:00Z");
        nodeEvent("event-node-notready", other, run + "-n5", null);
        await().atMost(Duration.ofSeconds(30)).until(() -> Store.count(pool,
                "SELECT count(*) FROM node_event WHERE node IN ($1, $2)", node, other) == 5
                && Store.count(pool, "SELECT count(*) FROM event WHERE job_id = $1", job) == 1
                && Store.count(pool, "SELECT count(*) FROM job_access WHERE job_id = $1", job) == 1);
    }

    /** A node event as the watcher publishes it: no job, keyed by cluster/namespace/node. */
    static void nodeEvent(String fixture, String node, String uid, String at) {
        ObjectNode e = (ObjectNode) Fixtures.json(fixture);
        ObjectNode meta = (ObjectNode) e.get("metadata");
        meta.put("uid", uid);
        meta.put("name", node + "." + uid);
        ((ObjectNode) e.get("involvedObject")).put("name", node);
        if (at != null) {
            meta.put("creationTimestamp", at);
            e.put("firstTimestamp", at);
            e.put("lastTimestamp", at);
        }
        Store.send("c1/default/" + node, Fixtures.record("c1", "ADDED", e, null));
    }

    @Test
    void aJobsEventsIncludeItsNodesEventsWhileItRanThereFlaggedWithTheNode() {
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + job + "/events").then().statusCode(200)
                .body("items.reason", contains("Scheduled", "KernelOops", "SystemOOM"))
                .body("items[0].node", nullValue())
                .body("items[1].node", equalTo(node)).body("items[1].object.kind", equalTo("Node"))
                .body("items[1].object.name", equalTo(node)).body("items[1].source", equalTo("kernel-monitor"))
                .body("items[2].message", equalTo("System OOM encountered, victim process: python, pid: 48211"))
                .body("items[2].pod", nullValue());
    }

    @Test
    void theNodesEventsPageAndFilterWithTheJobsOwn() {
        String cursor = given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + job + "/events?limit=2").then()
                .statusCode(200).body("items.reason", contains("Scheduled", "KernelOops")).extract().path("nextCursor");
        given().auth().oauth2(Tokens.alice()).queryParam("limit", 2).queryParam("cursor", cursor)
                .get("/api/v1/jobs/" + job + "/events").then().statusCode(200)
                .body("items.reason", contains("SystemOOM")).body("nextCursor", nullValue());
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + job + "/events?type=Warning&from=2025-03-04T09:39:45Z")
                .then().statusCode(200).body("items.reason", contains("SystemOOM"));
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + job + "/events?pod=" + job + "-0").then()
                .statusCode(200).body("items.reason", contains("Scheduled"));
    }

    @Test
    void theServiceTokenReadsTheEventsAndAnotherTenantStillGets404() {
        given().auth().oauth2(Tokens.service()).get("/api/v1/jobs/" + job + "/events").then().statusCode(200)
                .body("items", hasSize(3));
        given().auth().oauth2(Tokens.dave()).get("/api/v1/jobs/" + job + "/events").then().statusCode(404)
                .contentType("application/problem+json");
        // a person's token naming the service role reads nothing more than before
        given().auth().oauth2(Tokens.user("mallory").tenant("t2").roles("user", "service").get())
                .get("/api/v1/jobs/" + job + "/events").then().statusCode(404);
    }
}
