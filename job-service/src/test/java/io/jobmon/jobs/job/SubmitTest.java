package io.jobmon.jobs.job;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.startsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.jobmon.jobs.TestJobs;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.jobmon.testsupport.Tokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.KubernetesTestServer;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import io.restassured.http.ContentType;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Submitting: validation, idempotency, bad input, and the workload created on a kubernetes cluster. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
@WithKubernetesTestServer
class SubmitTest {

    @KubernetesTestServer
    KubernetesServer mockServer;

    @Test
    void aValidSubmissionIsPendingWithDefaultsAndLiveDurations() {
        given().auth().oauth2(Tokens.alice()).contentType(ContentType.JSON).body(TestJobs.spec())
                .post("/api/v1/jobs").then().statusCode(201)
                .header("Location", startsWith("/api/v1/jobs/j-"))
                .body("status", equalTo("PENDING"))
                .body("owner", equalTo("alice"))
                .body("tenant", equalTo("t1"))
                .body("region", equalTo("cn-south"))
                .body("queue", equalTo("default"))
                .body("priority", equalTo("NORMAL"))
                .body("visibility", equalTo("PRIVATE"))
                .body("gpu", equalTo("2*A800"))
                .body("queueTime", notNullValue())
                .body("retry.attempt", equalTo(1))
                .body("retry.cause", equalTo("INITIAL"))
                .body("spec.image", equalTo("registry.local/nlp/train:1.0"));
    }

    @Test
    void everyInvalidFieldIsNamedInOneProblem() {
        Map<String, Object> bad = TestJobs.spec(Map.of("name", "", "cluster", "nowhere", "replicas", 0,
                "resources", Map.of("gpusPerReplica", 4, "memory", "lots"), "tags", List.of("ok", "bad tag!"),
                "env", Map.of("1BAD", "x"), "workingDir", "relative/dir", "project", "project-cv"));
        given().auth().oauth2(Tokens.alice()).contentType(ContentType.JSON).body(bad)
                .post("/api/v1/jobs").then().statusCode(400)
                .contentType("application/problem+json")
                .body("errors.field", hasItems("name", "cluster", "replicas", "resources.gpuType",
                        "resources.memory", "tags[1]", "env.1BAD", "workingDir", "project"));
    }

    @Test
    void unknownFieldsAndUnknownEnumValuesAre400NamingTheField() {
        given().auth().oauth2(Tokens.alice()).contentType(ContentType.JSON)
                .body(TestJobs.spec(Map.of("gpuz", 3))).post("/api/v1/jobs").then().statusCode(400)
                .body("errors[0].field", equalTo("gpuz"));
        given().auth().oauth2(Tokens.alice()).contentType(ContentType.JSON)
                .body(TestJobs.spec(Map.of("priority", "URGENT"))).post("/api/v1/jobs").then().statusCode(400)
                .body("errors[0].field", equalTo("priority"));
        given().auth().oauth2(Tokens.alice()).contentType(ContentType.JSON).body("{not json")
                .post("/api/v1/jobs").then().statusCode(400).contentType("application/problem+json");
    }

    @Test
    void anOversizeBodyIs413Problem() {
        String huge = "{\"name\":\"" + "x".repeat(2 * 1024 * 1024) + "\"}";
        given().auth().oauth2(Tokens.alice()).contentType(ContentType.JSON).body(huge)
                .post("/api/v1/jobs").then().statusCode(413).contentType("application/problem+json")
                .body("status", equalTo(413));
    }

    @Test
    void aRetriedSubmitWithTheSameIdempotencyKeyReturnsTheSameJob() {
        Map<String, Object> spec = TestJobs.spec();
        String first = given().auth().oauth2(Tokens.alice()).header("Idempotency-Key", "k-" + spec.get("name"))
                .contentType(ContentType.JSON).body(spec).post("/api/v1/jobs").then().statusCode(201)
                .extract().path("id");
        given().auth().oauth2(Tokens.alice()).header("Idempotency-Key", "k-" + spec.get("name"))
                .contentType(ContentType.JSON).body(spec).post("/api/v1/jobs").then().statusCode(201)
                .header("Idempotent-Replayed", "true").body("id", equalTo(first));
        // the key is per user: bob's identical key makes bob's own job
        String bobs = given().auth().oauth2(Tokens.bob()).header("Idempotency-Key", "k-" + spec.get("name"))
                .contentType(ContentType.JSON).body(spec).post("/api/v1/jobs").then().statusCode(201)
                .extract().path("id");
        org.junit.jupiter.api.Assertions.assertNotEquals(first, bobs);
    }

    @Test
    void theSameIdempotencyKeyWithAnotherSpecIsRefusedAndCreatesNothing() {
        Map<String, Object> spec = TestJobs.spec();
        String key = "k2-" + spec.get("name");
        String first = given().auth().oauth2(Tokens.alice()).header("Idempotency-Key", key)
                .contentType(ContentType.JSON).body(spec).post("/api/v1/jobs").then().statusCode(201)
                .extract().path("id");
        Map<String, Object> other = new java.util.HashMap<>(spec);
        other.put("image", "registry.local/nlp/train:2.0");
        given().auth().oauth2(Tokens.alice()).header("Idempotency-Key", key)
                .contentType(ContentType.JSON).body(other).post("/api/v1/jobs").then().statusCode(422)
                .contentType("application/problem+json")
                .body("detail", containsString(first));
        // the job of the key is untouched, and the key still replays it for its own spec
        given().auth().oauth2(Tokens.alice()).header("Idempotency-Key", key)
                .contentType(ContentType.JSON).body(spec).post("/api/v1/jobs").then().statusCode(201)
                .body("id", equalTo(first)).body("spec.image", equalTo("registry.local/nlp/train:1.0"));
    }

    @Test
    void aMultiReplicaJobBecomesAnIndexedKubernetesJobWithLabelsGpusAndVolumes() {
        Map<String, Object> spec = TestJobs.spec(Map.of("cluster", "gpu-a", "queue", "gpu-prod", "replicas", 4,
                "priority", "HIGH", "env", Map.of("EPOCHS", "3"), "args", List.of("--lr", "0.1"),
                "workingDir", "/workspace", "labels", Map.of("team", "nlp"),
                "volumes", List.of(Map.of("name", "data", "claimName", "nlp-data", "mountPath", "/data",
                        "readOnly", true))));
        String id = TestJobs.submit(Tokens.alice(), spec);
        Job job = mockServer.getClient().batch().v1().jobs().inNamespace("train").withName(id).get();
        assertEquals("Indexed", job.getSpec().getCompletionMode());
        assertEquals(4, job.getSpec().getCompletions());
        assertEquals(4, job.getSpec().getParallelism());
        assertEquals(0, job.getSpec().getBackoffLimit());
        Map<String, String> labels = job.getSpec().getTemplate().getMetadata().getLabels();
        assertEquals(id, labels.get("jobmon.io/job-id"));
        assertEquals("alice", labels.get("jobmon.io/owner"));
        assertEquals("project-nlp", labels.get("jobmon.io/project"));
        assertEquals("nlp", labels.get("team"));
        var pod = job.getSpec().getTemplate().getSpec();
        assertEquals("jobmon-high", pod.getPriorityClassName());
        assertEquals("Never", pod.getRestartPolicy());
        Container c = pod.getContainers().get(0);
        assertEquals("registry.local/nlp/train:1.0", c.getImage());
        assertEquals(List.of("python", "train.py"), c.getCommand());
        assertEquals(List.of("--lr", "0.1"), c.getArgs());
        assertEquals("/workspace", c.getWorkingDir());
        assertEquals("2", c.getResources().getLimits().get("nvidia.com/gpu").getAmount());
        assertEquals("2", c.getResources().getRequests().get("nvidia.com/gpu").getAmount());
        assertEquals("64Gi", c.getResources().getRequests().get("memory").toString());
        assertEquals("3", c.getEnv().stream().filter(e -> e.getName().equals("EPOCHS")).findFirst().get().getValue());
        assertEquals("/data", c.getVolumeMounts().get(0).getMountPath());
        assertEquals(true, c.getVolumeMounts().get(0).getReadOnly());
        assertEquals("nlp-data", pod.getVolumes().get(0).getPersistentVolumeClaim().getClaimName());
    }

    @Test
    void aSingleReplicaJobIsNotIndexedAndAnExternalClusterGetsNoWorkload() {
        String single = TestJobs.submit(Tokens.alice(), TestJobs.spec(Map.of("cluster", "gpu-a")));
        assertEquals("NonIndexed", mockServer.getClient().batch().v1().jobs().inNamespace("train").withName(single)
                .get().getSpec().getCompletionMode());
        String external = TestJobs.submit(Tokens.alice());
        assertNull(mockServer.getClient().batch().v1().jobs().inNamespace("train").withName(external).get());
    }

    @Test
    void aQueueTheClusterDoesNotHaveOrARegionItIsNotInIsRefused() {
        given().auth().oauth2(Tokens.alice()).contentType(ContentType.JSON)
                .body(TestJobs.spec(Map.of("cluster", "gpu-a", "queue", "cpu-only", "region", "mars")))
                .post("/api/v1/jobs").then().statusCode(400).body("errors.field", hasItems("queue", "region"));
    }
}
