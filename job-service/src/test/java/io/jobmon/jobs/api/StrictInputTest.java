package io.jobmon.jobs.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import io.jobmon.jobs.TestJobs;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.jobmon.testsupport.Tokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Input is taken as it is or refused with a 400 naming the field, never coerced and never a 5xx: wrong JSON types,
 * NUL characters (PostgreSQL cannot store them), a body in another charset than UTF-8, a limit that is not a number.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
@WithKubernetesTestServer
class StrictInputTest {

    static String withField(String field, String jsonValue) {
        String valid = "{\"name\":\"strict\",\"project\":\"project-nlp\",\"cluster\":\"ext-b\",\"image\":\"reg/x:1\"";
        return valid + ",\"" + field + "\":" + jsonValue + "}";
    }

    static void refused(String body, String field, String code) {
        given().auth().oauth2(Tokens.alice()).contentType("application/json").body(body).post("/api/v1/jobs").then()
                .statusCode(400).contentType("application/problem+json")
                .body("type", equalTo("https://jobmon.io/problems/invalid-request"))
                .body("errors[0].field", equalTo(field)).body("errors[0].code", equalTo(code));
    }

    @Test
    void wrongJsonTypesAreRefusedNotCoerced() {
        refused("{\"name\":123,\"project\":\"project-nlp\",\"cluster\":\"ext-b\",\"image\":\"reg/x:1\"}", "name",
                "json.expected.string");
        refused(withField("supportsRestart", "-1"), "supportsRestart", "json.expected.boolean");
        refused(withField("supportsRestart", "\"yes\""), "supportsRestart", "json.expected.boolean");
        refused(withField("replicas", "\"2\""), "replicas", "json.expected.integer");
        refused(withField("replicas", "1.5"), "replicas", "json.expected.integer");
        refused(withField("priority", "0"), "priority", "json.expected.enum");
        refused(withField("tags", "[1]"), "tags[0]", "json.expected.string");
        refused(withField("command", "\"python train.py\""), "command", "json.expected.array");
    }

    @Test
    void aNulCharacterInAJsonStringOrKeyIsA400NeverA500() {
        refused(withField("tags", "[\"a\\u0000b\"]"), "tags[0]", "field.nul");
        refused(withField("env", "{\"A\\u0000\":\"1\"}"), "env", "field.nul");
        refused("{\"name\":\"x\\u0000\",\"project\":\"project-nlp\",\"cluster\":\"ext-b\",\"image\":\"reg/x:1\"}",
                "name", "field.nul");
        String id = TestJobs.submit(Tokens.alice());
        given().auth().oauth2(Tokens.alice()).contentType("application/json").body("{\"users\":[\"bo\\u0000b\"]}")
                .put("/api/v1/jobs/" + id + "/shares").then().statusCode(400).body("errors[0].code", equalTo("field.nul"));
        given().auth().oauth2(Tokens.alice()).urlEncodingEnabled(false).get("/api/v1/jobs?name=a%00b").then()
                .statusCode(400).body("errors[0].field", equalTo("query"));
    }

    @Test
    void aBodyInAnotherCharsetThanUtf8IsRefused() {
        byte[] latin1 = "{\"name\":\"caf\u00e9\",\"project\":\"project-nlp\",\"cluster\":\"ext-b\",\"image\":\"reg/x:1\"}"
                .getBytes(StandardCharsets.ISO_8859_1);
        given().auth().oauth2(Tokens.alice()).contentType("application/json; charset=ISO-8859-1").body(latin1)
                .post("/api/v1/jobs").then().statusCode(415).contentType("application/problem+json")
                .body("type", equalTo("https://jobmon.io/problems/unsupported-media-type"));
        given().auth().oauth2(Tokens.alice()).contentType("application/json; charset=utf-8")
                .body(Map.of("name", "caf\u00e9", "project", "project-nlp", "cluster", "ext-b", "image", "reg/x:1"))
                .post("/api/v1/jobs").then().statusCode(201).body("name", equalTo("caf\u00e9"));
    }

    @Test
    void aLimitThatIsNotAWholeNumberIsA400OnEveryList() {
        String id = TestJobs.submit(Tokens.alice());
        for (String path : new String[] {"/api/v1/jobs", "/api/v1/jobs/" + id + "/pods", "/api/v1/tags",
                "/api/v1/users"}) {
            for (String limit : new String[] {"abc", "0", "501", "1.5", "-1"}) {
                given().auth().oauth2(Tokens.alice()).queryParam("limit", limit).get(path).then().statusCode(400)
                        .body("errors[0].field", equalTo("limit"));
            }
        }
    }

    @Test
    void aQueryParameterTheOperationDoesNotTakeIsA400NamingIt() {
        given().auth().oauth2(Tokens.alice()).queryParam("statuss", "FAILED").get("/api/v1/jobs").then().statusCode(400)
                .contentType("application/problem+json").body("errors[0].field", equalTo("statuss"))
                .body("errors[0].code", equalTo("field.unknown-parameter"))
                .body("errors[0].message", containsString("status"));
        given().auth().oauth2(Tokens.alice()).queryParam("status", "FAILED").get("/api/v1/jobs").then().statusCode(200);
        String id = TestJobs.submit(Tokens.alice());
        given().auth().oauth2(Tokens.alice()).header("Accept-Language", "zh-CN").queryParam("verbose", "1")
                .get("/api/v1/jobs/" + id).then().statusCode(400).body("errors[0].field", equalTo("verbose"))
                .body("errors[0].message", containsString("不接受查询参数"));
    }

    @Test
    void notFoundTextsAreUniformAndEveryProblemTypeIsAJobmonUri() {
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/j-none").then().statusCode(404)
                .body("detail", equalTo("no job j-none")).body("type", equalTo("https://jobmon.io/problems/not-found"));
        given().auth().oauth2(Tokens.alice()).post("/api/v1/jobs/j-none/stop").then().statusCode(404)
                .body("detail", equalTo("no job j-none"));
        given().auth().oauth2(Tokens.alice()).get("/api/v1/nothing-here").then().statusCode(404)
                .body("detail", equalTo("no such resource"));
        given().auth().oauth2(Tokens.alice()).contentType("text/plain").body("x").post("/api/v1/jobs").then()
                .statusCode(415).body("type", startsWith("https://jobmon.io/problems/"));
        given().auth().oauth2(Tokens.alice()).delete("/api/v1/jobs").then().statusCode(405)
                .body("type", startsWith("https://jobmon.io/problems/"));
    }
}
