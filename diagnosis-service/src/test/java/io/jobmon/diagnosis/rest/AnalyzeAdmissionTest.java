package io.jobmon.diagnosis.rest;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jobmon.diagnosis.analysis.AnalysisAdmission;
import io.jobmon.diagnosis.bench.AnalyzeBenchmark;
import io.jobmon.diagnosis.bench.BundleJson;
import io.jobmon.diagnosis.support.EvidenceServer;
import io.jobmon.diagnosis.support.Samples;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.jobmon.testsupport.Tokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * {@code /analyze} admits analyses by the heap they need (test budget 16 MB at 7 bytes of heap per bundle byte): a
 * burst of large bundles gets clear answers, a diagnosis or a 503 problem with {@code Retry-After}, and never an
 * error; the budget is whole again afterwards.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
@WithTestResource(EvidenceServer.class)
class AnalyzeAdmissionTest {

    static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    AnalysisAdmission admission;

    @TestHTTPResource("/api/v1/diagnoses/analyze")
    URL analyze;

    @Test
    void whenTheRunningAnalysesHoldTheMemoryARequestIs503WithRetryAfterAndLaterServed() {
        List<AnalysisAdmission.Reservation> held = new ArrayList<>();
        for (Optional<AnalysisAdmission.Reservation> r = admission.tryReserve(-1); r.isPresent();
                r = admission.tryReserve(1024)) {
            held.add(r.get());
        }
        String bundle = Samples.bundle("008-gpu_oom.json").toString();
        try {
            given().auth().oauth2(Tokens.bob()).contentType("application/json").body(bundle)
                    .post("/api/v1/diagnoses/analyze").then().statusCode(503).contentType("application/problem+json")
                    .header("Retry-After", "2").body("detail", containsString("retry in 2 s"));
        } finally {
            held.forEach(AnalysisAdmission.Reservation::release);
        }
        given().auth().oauth2(Tokens.bob()).contentType("application/json").body(bundle)
                .post("/api/v1/diagnoses/analyze").then().statusCode(200).body("category", equalTo("GPU_OOM"));
        assertEquals(0, admission.reservedBytes());
    }

    @Test
    void aBurstOfEightLargeBundlesGetsDiagnosesOr503sNothingElse() throws Exception {
        byte[] body = BundleJson.bytes(AnalyzeBenchmark.bundle(0.07));
        assertTrue(body.length > 1_000_000 && body.length < 2_000_000, body.length + " bytes");
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        String token = Tokens.bob();
        List<CompletableFuture<HttpResponse<String>>> burst = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            burst.add(client.sendAsync(HttpRequest.newBuilder(URI.create(analyze.toString()))
                    .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                    .timeout(Duration.ofSeconds(120)).POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
        int ok = 0;
        for (CompletableFuture<HttpResponse<String>> f : burst) {
            HttpResponse<String> r = f.get();
            JsonNode answer = JSON.readTree(r.body());
            if (r.statusCode() == 200) {
                ok++;
                assertEquals("NCCL_COMMUNICATION_ERROR", answer.path("category").asText(), r.body());
            } else {
                assertEquals(503, r.statusCode(), r.body());
                assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json"));
                assertNotNull(r.headers().firstValue("Retry-After").orElse(null), "Retry-After on " + r.body());
                assertEquals(503, answer.path("status").asInt());
            }
        }
        assertTrue(ok >= 1, "the first admitted bundle is diagnosed");
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> admission.reservedBytes() == 0);
    }
}
