package io.jobmon.jobs.job;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.events.JobStatusChanged;
import io.jobmon.jobs.TestJobs;
import io.jobmon.jobs.messaging.StatusHandler;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.jobmon.testsupport.Tokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.quarkus.test.kubernetes.client.KubernetesTestServer;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The timeline in the order things happened, the list's updatedAt and priority sorts, GPU capacity at submit. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
@WithKubernetesTestServer
class TimelineSortCapacityTest {

    @Inject
    StatusHandler statuses;

    private void apply(String id, JobStatus status, String reason, Instant at, long sequence) {
        statuses.apply(new JobStatusChanged(id, "ext-b", status, reason, null, null, at, sequence, List.of()))
                .await().indefinitely();
    }

    /**
     * The cluster's times are cut to the second: RUNNING at .000 happened after the submission at .683 of the same
     * second, and the cluster's STOPPED at .000 after jobmon's STOPPING at .037. The timeline keeps that order,
     * says whose clock each time is, and startedAt is never before submittedAt.
     */
    @Test
    void theTimelineReadsInTheOrderThingsHappenedAndSaysWhoseClockEachTimeIs() {
        String id = TestJobs.submit(Tokens.alice());
        Instant submitted = Instant.parse(given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + id).then()
                .extract().path("submittedAt"));
        Instant cut = submitted.truncatedTo(ChronoUnit.SECONDS);
        apply(id, JobStatus.RUNNING, "Started", cut, 1);
        given().auth().oauth2(Tokens.alice()).post("/api/v1/jobs/" + id + "/stop").then().statusCode(200)
                .body("status", equalTo("STOPPING"));
        apply(id, JobStatus.STOPPED, "Stopped", cut, 2);

        Response r = given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + id + "/timeline").then()
                .statusCode(200).body("items.status", contains("PENDING", "RUNNING", "STOPPING", "STOPPED"))
                .body("items.timeSource", contains("jobmon", "cluster", "jobmon", "cluster"))
                .body("items.source", contains("USER", "CLUSTER", "USER", "CLUSTER"))
                .body("items[0].at", nullValue()).body("nextCursor", nullValue()).extract().response();
        assertEquals(cut.toString().replace("Z", ".000Z"), r.path("items[1].time"));
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + id).then()
                .body("startedAt", equalTo(r.path("items[0].time")))
                .body("submittedAt", equalTo(r.path("items[0].time"))).body("queueSeconds", equalTo(0));

        // limit pages through it, in the same order
        List<String> paged = new ArrayList<>();
        String cursor = null;
        do {
            var req = given().auth().oauth2(Tokens.alice()).queryParam("limit", 3);
            if (cursor != null) {
                req.queryParam("cursor", cursor);
            }
            Response page = req.get("/api/v1/jobs/" + id + "/timeline").then().statusCode(200).extract().response();
            List<String> items = page.path("items.status");
            assertFalse(items.size() > 3);
            paged.addAll(items);
            cursor = page.path("nextCursor");
        } while (cursor != null);
        assertEquals(List.of("PENDING", "RUNNING", "STOPPING", "STOPPED"), paged);
        given().auth().oauth2(Tokens.alice()).queryParam("limit", 1).get("/api/v1/jobs/" + id + "/timeline").then()
                .body("items", hasSize(1)).body("nextCursor", not(nullValue()));
        given().auth().oauth2(Tokens.alice()).queryParam("limit", 0).get("/api/v1/jobs/" + id + "/timeline").then()
                .statusCode(400).body("errors[0].field", equalTo("limit"));
        given().auth().oauth2(Tokens.alice()).queryParam("cursor", "nonsense").get("/api/v1/jobs/" + id + "/timeline")
                .then().statusCode(400).body("errors[0].field", equalTo("cursor"));
    }

    @Test
    void theListSortsByPriorityAndByUpdatedAtAndPagesThroughBoth() {
        String token = Tokens.user("sorter-" + UUID.randomUUID().toString().substring(0, 6)).groups("project-nlp")
                .get();
        String low = TestJobs.submit(token, TestJobs.spec(Map.of("priority", "LOW")));
        String high = TestJobs.submit(token, TestJobs.spec(Map.of("priority", "HIGH")));
        String normal = TestJobs.submit(token, TestJobs.spec(Map.of("priority", "NORMAL")));
        assertEquals(List.of(high, normal, low), all(token, "priority:desc"));
        assertEquals(List.of(low, normal, high), all(token, "priority:asc"));
        // a change to the oldest job makes it the most recently updated
        given().auth().oauth2(token).contentType(ContentType.JSON).body(Map.of("tags", List.of("touched")))
                .put("/api/v1/jobs/" + low + "/tags").then().statusCode(200);
        assertEquals(List.of(low, normal, high), all(token, "updatedAt:desc"));
        assertEquals(List.of(high, normal, low), all(token, "updatedAt:asc"));
        given().auth().oauth2(token).queryParam("sort", "priority:sideways").get("/api/v1/jobs").then()
                .statusCode(400).body("errors[0].field", equalTo("sort"));
    }

    /** Every job of the caller's list in the sort's order, one row per page (through every cursor). */
    private static List<String> all(String token, String sort) {
        List<String> ids = new ArrayList<>();
        String cursor = null;
        do {
            var req = given().auth().oauth2(token).queryParam("limit", 1).queryParam("sort", sort);
            if (cursor != null) {
                req.queryParam("cursor", cursor);
            }
            Response page = req.get("/api/v1/jobs").then().statusCode(200).extract().response();
            ids.addAll(page.path("items.id"));
            cursor = page.path("nextCursor");
        } while (cursor != null);
        return ids;
    }

    @Test
    void moreGpusThanTheQueueHasIsA422AndAnUnknownCapacityAWarning() {
        // ext-b's default queue has 16 GPUs (test config): 4 replicas x 8 can never be placed
        Map<String, Object> big = TestJobs.spec(Map.of("replicas", 4,
                "resources", Map.of("gpuType", "H100", "gpusPerReplica", 8)));
        given().auth().oauth2(Tokens.alice()).header("Accept-Language", "en").contentType(ContentType.JSON)
                .body(big).post("/api/v1/jobs").then().statusCode(422)
                .contentType("application/problem+json")
                .body("detail", containsString("32 H100 GPUs")).body("detail", containsString("has 16"))
                .body("errors.field", contains("replicas", "resources.gpusPerReplica"))
                .body("errors[0].code", equalTo("capacity.exceeded.field"));
        given().auth().oauth2(Tokens.alice()).header("Accept-Language", "zh-CN").contentType(ContentType.JSON)
                .body(big).post("/api/v1/jobs").then().statusCode(422)
                .body("detail", containsString("32 张 H100 GPU"))
                .body("detail", matchesPattern(StatusExplainedTest.CHINESE))
                .body("errors[0].message", matchesPattern(StatusExplainedTest.CHINESE));
        // exactly what it has is fine, with no warning
        given().auth().oauth2(Tokens.alice()).contentType(ContentType.JSON)
                .body(TestJobs.spec(Map.of("replicas", 2, "resources", Map.of("gpuType", "H100", "gpusPerReplica", 8))))
                .post("/api/v1/jobs").then().statusCode(201).body("warnings", nullValue());
        // metrics-q's capacity is not configured: accepted, saying it could not be checked
        given().auth().oauth2(Tokens.alice()).header("Accept-Language", "en").contentType(ContentType.JSON)
                .body(TestJobs.spec(Map.of("queue", "metrics-q", "replicas", 4,
                        "resources", Map.of("gpuType", "H100", "gpusPerReplica", 8))))
                .post("/api/v1/jobs").then().statusCode(201)
                .body("warnings", hasSize(1)).body("warnings[0]", containsString("does not know how many GPUs"))
                .body("warnings[0]", containsString("metrics-q"));
    }

    @KubernetesTestServer
    KubernetesServer mockServer;

    private static Node gpuNode(String name, String product, int gpus, boolean unschedulable) {
        return new NodeBuilder().withNewMetadata().withName(name).addToLabels("nvidia.com/gpu.product", product)
                .endMetadata().withNewSpec().withUnschedulable(unschedulable).endSpec().withNewStatus()
                .addToAllocatable("nvidia.com/gpu", new Quantity(Integer.toString(gpus))).endStatus().build();
    }

    /**
     * On a kubernetes cluster the GPUs are read from its nodes: 32 H800 where its schedulable nodes have 16 is a
     * 422; a replica of 16 where the largest node has 8 is accepted with a warning; what fits, with none.
     */
    @Test
    void moreGpusOfAModelThanTheClustersNodesHaveIsA422() {
        List<Node> nodes = List.of(gpuNode("cap-h1", "NVIDIA-H800-80GB-HBM3", 8, false),
                gpuNode("cap-h2", "NVIDIA-H800-80GB-HBM3", 8, false), gpuNode("cap-a1", "NVIDIA-A800-SXM4-80GB", 8, false),
                gpuNode("cap-h3", "NVIDIA-H800-80GB-HBM3", 8, true));
        nodes.forEach(n -> mockServer.getClient().nodes().resource(n).create());
        try {
            Map<String, Object> on = Map.of("cluster", "gpu-a", "queue", "gpu-dev");
            given().auth().oauth2(Tokens.alice()).header("Accept-Language", "en").contentType(ContentType.JSON)
                    .body(TestJobs.spec(merge(on, Map.of("replicas", 4,
                            "resources", Map.of("gpuType", "H800", "gpusPerReplica", 8)))))
                    .post("/api/v1/jobs").then().statusCode(422).contentType("application/problem+json")
                    .body("detail", containsString("32 H800 GPUs")).body("detail", containsString("have 16"))
                    .body("errors[0].code", equalTo("capacity.cluster-exceeded.field"));
            given().auth().oauth2(Tokens.alice()).header("Accept-Language", "zh-CN").contentType(ContentType.JSON)
                    .body(TestJobs.spec(merge(on, Map.of("replicas", 1,
                            "resources", Map.of("gpuType", "H800", "gpusPerReplica", 16)))))
                    .post("/api/v1/jobs").then().statusCode(201)
                    .body("warnings", hasSize(1)).body("warnings[0]", containsString("最大的节点只有 8 张"));
            given().auth().oauth2(Tokens.alice()).contentType(ContentType.JSON)
                    .body(TestJobs.spec(merge(on, Map.of("replicas", 2,
                            "resources", Map.of("gpuType", "H800", "gpusPerReplica", 8)))))
                    .post("/api/v1/jobs").then().statusCode(201).body("warnings", nullValue());
            // a model the cluster pins to no product may run on any GPU node: 24 schedulable GPUs in all
            given().auth().oauth2(Tokens.alice()).header("Accept-Language", "en").contentType(ContentType.JSON)
                    .body(TestJobs.spec(merge(on, Map.of("replicas", 4,
                            "resources", Map.of("gpuType", "A100", "gpusPerReplica", 8)))))
                    .post("/api/v1/jobs").then().statusCode(422).body("detail", containsString("have 24"));
            given().auth().oauth2(Tokens.alice()).contentType(ContentType.JSON)
                    .body(TestJobs.spec(merge(on, Map.of("replicas", 3,
                            "resources", Map.of("gpuType", "A100", "gpusPerReplica", 8)))))
                    .post("/api/v1/jobs").then().statusCode(201);
        } finally {
            nodes.forEach(n -> mockServer.getClient().nodes().withName(n.getMetadata().getName()).delete());
        }
    }

    private static Map<String, Object> merge(Map<String, Object> a, Map<String, Object> b) {
        Map<String, Object> m = new java.util.HashMap<>(a);
        m.putAll(b);
        return m;
    }
}
