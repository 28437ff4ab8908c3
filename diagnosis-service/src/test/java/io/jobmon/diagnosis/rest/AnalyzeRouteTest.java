package io.jobmon.diagnosis.rest;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jobmon.diagnosis.support.EvidenceServer;
import io.jobmon.diagnosis.support.Samples;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.jobmon.testsupport.Tokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import io.restassured.response.Response;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** {@code POST /api/v1/diagnoses/analyze}: samples in, contract JSON out; malformed → 400 naming the field; 413. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
@WithTestResource(EvidenceServer.class)
class AnalyzeRouteTest {

    private static final String RFC3339 = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z";

    @TestHTTPResource("/api/v1/diagnoses/analyze")
    URL analyze;

    @ParameterizedTest
    @ValueSource(strings = {"008-gpu_oom.json", "004-image_pull_failed.json", "021-healthy.json"})
    void aSampleBundleIsDiagnosedAsItsExpectationSays(String sample) {
        ObjectNode bundle = Samples.bundle(sample);
        Response r = given().auth().oauth2(Tokens.bob()).contentType("application/json").body(bundle.toString())
                .post("/api/v1/diagnoses/analyze");
        r.then().statusCode(200).contentType("application/json")
                .body("category", equalTo(Samples.expect(sample).path("category").asText()))
                .body("action", equalTo(Samples.expect(sample).path("action").asText()))
                .body("summary", notNullValue())
                .body("suggestion", notNullValue())
                .body("confidence", notNullValue())
                .body("related", notNullValue())
                .body("evidence.source", everyItem(notNullValue()))
                .body("evidence.findAll { it.time != null }.time", everyItem(matchesPattern(RFC3339)));
    }

    @Test
    void aMalformedValueIs400NamingItsField() {
        ObjectNode bundle = Samples.bundle("008-gpu_oom.json");
        ((ObjectNode) bundle.withArray("logs").get(1)).put("time", "yesterday at noon");
        given().auth().oauth2(Tokens.alice()).contentType("application/json").body(bundle.toString())
                .post("/api/v1/diagnoses/analyze").then().statusCode(400)
                .contentType("application/problem+json")
                .body("status", equalTo(400))
                .body("errors[0].field", equalTo("logs[1].time"));
    }

    @Test
    void aBodyThatIsNotJsonIs400Problem() {
        given().auth().oauth2(Tokens.alice()).contentType("application/json").body("{\"job\": ")
                .post("/api/v1/diagnoses/analyze").then().statusCode(400)
                .contentType("application/problem+json")
                .body("errors[0].field", equalTo("$"))
                .body("detail", not(matchesPattern("(?s).*(Exception|\\tat ).*")));
    }

    @Test
    void aBundleThatIsNoObjectIs400NamingTheRoot() {
        given().auth().oauth2(Tokens.alice()).contentType("application/json").body("[1, 2]")
                .post("/api/v1/diagnoses/analyze").then().statusCode(400).body("errors[0].field", equalTo("$"));
    }

    @Test
    void anEmptyBundleIsStillDiagnosed() {
        given().auth().oauth2(Tokens.alice()).contentType("application/json").body("{}")
                .post("/api/v1/diagnoses/analyze").then().statusCode(200).body("category", notNullValue());
    }

    @Test
    void chineseIsAnsweredForAcceptLanguageZh() {
        String english = given().auth().oauth2(Tokens.alice()).contentType("application/json")
                .body(Samples.bundle("008-gpu_oom.json").toString()).post("/api/v1/diagnoses/analyze")
                .then().statusCode(200).extract().path("suggestion");
        String chinese = given().auth().oauth2(Tokens.alice()).contentType("application/json")
                .header("Accept-Language", "zh-CN,zh;q=0.9,en;q=0.5")
                .body(Samples.bundle("008-gpu_oom.json").toString()).post("/api/v1/diagnoses/analyze")
                .then().statusCode(200).body("category", equalTo("GPU_OOM")).extract().path("suggestion");
        assertTrue(chinese.codePoints().anyMatch(c -> Character.UnicodeScript.of(c) == Character.UnicodeScript.HAN),
                chinese);
        assertTrue(english.codePoints().noneMatch(c -> Character.UnicodeScript.of(c) == Character.UnicodeScript.HAN));
    }

    @Test
    void aDeclaredBodyOverTheBundleLimitIs413Problem() {
        byte[] body = new byte[3 * 1024 * 1024]; // the test limit is 2M
        Arrays.fill(body, (byte) ' ');
        given().auth().oauth2(Tokens.alice()).contentType("application/json").body(body)
                .post("/api/v1/diagnoses/analyze").then().statusCode(413)
                .contentType("application/problem+json").body("status", equalTo(413));
    }

    @Test
    void aChunkedBodyOverTheBundleLimitIs413Problem() throws Exception {
        HttpResponse<String> r = chunked(3 * 1024 * 1024); // over the bundle limit, under Quarkus' ceiling
        assertEquals(413, r.statusCode());
        assertEquals("application/problem+json", r.headers().firstValue("Content-Type").orElse(""));
    }

    @Test
    void aChunkedBodyOverQuarkusOwnLimitIs413ProblemToo() throws Exception {
        HttpResponse<String> r = chunked(5 * 1024 * 1024); // over quarkus.http.limits.max-body-size (4M in tests) too
        assertEquals(413, r.statusCode());
        assertEquals("application/problem+json", r.headers().firstValue("Content-Type").orElse(""));
        assertTrue(r.body().contains("\"status\":413"), r.body());
    }

    @Test
    void aBodyThatIsNotJsonIs415Problem() {
        given().auth().oauth2(Tokens.alice()).contentType("text/plain").body("{}")
                .post("/api/v1/diagnoses/analyze").then().statusCode(415).contentType("application/problem+json");
    }

    @Test
    void withoutATokenItIs401Problem() {
        given().contentType("application/json").body("{}").post("/api/v1/diagnoses/analyze").then().statusCode(401)
                .contentType("application/problem+json");
    }

    @Test
    void theOpenApiDocumentDescribesIt() {
        given().get(io.jobmon.testsupport.Management.url("/q/openapi?format=json")).then().statusCode(200)
                .body("paths.'/api/v1/diagnoses/analyze'.post.responses.'413'", notNullValue())
                .body("paths.'/api/v1/jobs/{id}/diagnoses'.post", notNullValue());
    }

    @Test
    void aTaskRequestOverTheSmallRequestLimitIs413Problem() {
        byte[] body = new byte[1100 * 1024];
        Arrays.fill(body, (byte) ' ');
        given().auth().oauth2(Tokens.alice()).contentType("application/json").body(body)
                .post("/api/v1/jobs/any/diagnoses").then().statusCode(413).contentType("application/problem+json");
    }

    private HttpResponse<String> chunked(int size) throws Exception {
        byte[] body = new byte[size];
        Arrays.fill(body, (byte) ' ');
        HttpRequest request = HttpRequest.newBuilder(URI.create(analyze.toString()))
                .header("Authorization", "Bearer " + Tokens.alice()).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body))).build();
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        return client.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
