package io.jobmon.jobs.lookup;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;

import io.jobmon.jobs.TestJobs;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.jobmon.testsupport.Tokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The lookups behind every filter, the submit form and the share dialog; each answers only the caller's tenant. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
@WithKubernetesTestServer
class LookupsTest {

    @Test
    void clustersListTheirRegionTypeAndQueuesWithGpuModelsAndLimits() {
        given().auth().oauth2(Tokens.alice()).get("/api/v1/clusters").then().statusCode(200)
                .body("items.name", hasItem("gpu-a"))
                .body("items.find { it.name == 'gpu-a' }.region", equalTo("cn-north"))
                .body("items.find { it.name == 'gpu-a' }.type", equalTo("KUBERNETES"))
                .body("items.find { it.name == 'gpu-a' }.queues.name", contains("gpu-prod", "gpu-dev", "cv-only"))
                .body("items.find { it.name == 'gpu-a' }.queues[0].gpuTypes", contains("A800", "H800"))
                .body("items.find { it.name == 'gpu-a' }.queues[0].maxGpusPerReplica", equalTo(8))
                .body("items.find { it.name == 'gpu-a' }.queues[0].maxGpusPerJob", equalTo(64))
                .body("items.find { it.name == 'gpu-a' }.queues[0].gpus", equalTo(512))
                .body("items.find { it.name == 'gpu-a' }.queues[0].description", equalTo("production training"))
                .body("items.find { it.name == 'gpu-a' }.queues[2].mayUse", equalTo(false))
                .body("items.find { it.name == 'ext-b' }.queues.name", contains("default", "metrics-q"));
    }

    @Test
    void queuesAreTheOnesTheCallerMaySubmitTo() {
        given().auth().oauth2(Tokens.alice()).queryParam("cluster", "gpu-a").get("/api/v1/queues").then()
                .statusCode(200).body("items.name", contains("gpu-prod", "gpu-dev"))
                .body("items[0].region", equalTo("cn-north"));
        given().auth().oauth2(Tokens.carol()).queryParam("cluster", "gpu-a").get("/api/v1/queues").then()
                .statusCode(200).body("items.name", contains("gpu-prod", "gpu-dev", "cv-only"));
        given().auth().oauth2(Tokens.alice()).queryParam("region", "cn-south").get("/api/v1/queues").then()
                .statusCode(200).body("items.cluster", contains("ext-b", "ext-b"));
        // and a spec must name one of them
        given().auth().oauth2(Tokens.alice()).contentType("application/json")
                .body(TestJobs.spec(Map.of("queue", "anything-at-all"))).post("/api/v1/jobs").then().statusCode(400)
                .body("errors[0].field", equalTo("queue")).body("errors[0].code", equalTo("spec.queue"));
        given().auth().oauth2(Tokens.alice()).contentType("application/json")
                .body(TestJobs.spec(Map.of("cluster", "gpu-a", "queue", "cv-only"))).post("/api/v1/jobs").then()
                .statusCode(400).body("errors[0].code", equalTo("spec.queue-project"));
    }

    @Test
    void projectsAreTheCallersGroupsAndAnAdminSeesTheTenantsToo() {
        given().auth().oauth2(Tokens.alice()).get("/api/v1/projects").then().statusCode(200)
                .body("items.name", contains("project-nlp")).body("items[0].member", equalTo(true));
        TestJobs.submit(Tokens.alice());
        given().auth().oauth2(Tokens.admin()).get("/api/v1/projects").then().statusCode(200)
                .body("items.name", hasItem("project-nlp"))
                .body("items.find { it.name == 'project-nlp' }.member", equalTo(false));
    }

    @Test
    void tagsInUseAreCountedOverTheCallersVisibleJobsOnly() {
        String me = "tagger-" + UUID.randomUUID().toString().substring(0, 6);
        String token = Tokens.user(me).groups("project-nlp").get();
        String tag = "t" + UUID.randomUUID().toString().substring(0, 6);
        TestJobs.submit(token, TestJobs.spec(Map.of("tags", List.of(tag, "common"))));
        TestJobs.submit(token, TestJobs.spec(Map.of("tags", List.of(tag))));
        TestJobs.submit(Tokens.user("stranger").tenant("t2").groups("project-nlp").get(),
                TestJobs.spec(Map.of("tags", List.of(tag))));
        given().auth().oauth2(token).get("/api/v1/tags").then().statusCode(200)
                .body("items[0].tag", equalTo(tag)).body("items[0].count", equalTo(2))
                .body("items.find { it.tag == 'common' }.count", equalTo(1));
        given().auth().oauth2(token).queryParam("scope", "shared").get("/api/v1/tags").then().statusCode(200)
                .body("items", hasSize(0));
        given().auth().oauth2(token).queryParam("scope", "all").get("/api/v1/tags").then().statusCode(403);
        given().auth().oauth2(token).queryParam("scope", "everything").get("/api/v1/tags").then().statusCode(400)
                .body("errors[0].field", equalTo("scope"));
    }

    @Test
    void usersAreThoseJobmonHasSeenInTheCallersTenantOnly() {
        String suffix = UUID.randomUUID().toString().substring(0, 6);
        TestJobs.known(Tokens.user("una-" + suffix).get(), Tokens.user("unb-" + suffix).get(),
                Tokens.user("unc-" + suffix).tenant("t2").get());
        given().auth().oauth2(Tokens.alice()).queryParam("q", "UN").queryParam("limit", 500).get("/api/v1/users")
                .then().statusCode(200)
                .body("items.name", hasItem("una-" + suffix)).body("items.name", hasItem("unb-" + suffix))
                .body("items.name", not(hasItem("unc-" + suffix)))
                .body("items[0].lastSeenAt", notNullValue());
        var first = given().auth().oauth2(Tokens.alice()).queryParam("q", "un").queryParam("limit", 1)
                .get("/api/v1/users").then().statusCode(200).body("items", hasSize(1)).extract().jsonPath();
        given().auth().oauth2(Tokens.alice()).queryParam("q", "un").queryParam("limit", 1)
                .queryParam("cursor", first.getString("nextCursor")).get("/api/v1/users").then().statusCode(200)
                .body("items[0].name", not(equalTo(first.getString("items[0].name"))));
        given().auth().oauth2(Tokens.alice()).queryParam("q", "x' OR 1=1").get("/api/v1/users").then()
                .statusCode(400).body("errors[0].field", equalTo("q"));
    }

    @Test
    void sharingWithAUserJobmonDoesNotKnowInTheTenantIsRefusedNamingThem() {
        String id = TestJobs.submit(Tokens.alice());
        String stranger = "nobody-" + UUID.randomUUID().toString().substring(0, 6);
        String otherTenant = "t2user-" + UUID.randomUUID().toString().substring(0, 6);
        TestJobs.known(Tokens.carol(), Tokens.user(otherTenant).tenant("t2").get());
        given().auth().oauth2(Tokens.alice()).contentType("application/json")
                .body(Map.of("users", List.of("carol", stranger, otherTenant)))
                .put("/api/v1/jobs/" + id + "/shares").then().statusCode(422).contentType("application/problem+json")
                .body("type", equalTo("https://jobmon.io/problems/unprocessable"))
                .body("errors.field", contains("users[1]", "users[2]"))
                .body("errors[0].message", org.hamcrest.Matchers.containsString(stranger))
                .body("detail", org.hamcrest.Matchers.containsString(stranger));
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + id).then().body("shares", hasSize(0));
        given().auth().oauth2(Tokens.alice()).contentType("application/json").body(Map.of("users", List.of("carol")))
                .put("/api/v1/jobs/" + id + "/shares").then().statusCode(200).body("shares", contains("carol"));
    }
}
