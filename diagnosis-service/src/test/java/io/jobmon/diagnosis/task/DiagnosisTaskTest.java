package io.jobmon.diagnosis.task;

import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.matching;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.matchesRegex;
import static org.hamcrest.Matchers.oneOf;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.jobmon.diagnosis.support.Diagnoses;
import io.jobmon.diagnosis.support.EvidenceServer;
import io.jobmon.diagnosis.support.Jobs;
import io.jobmon.diagnosis.support.Samples;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.jobmon.testsupport.Tokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import io.restassured.path.json.JsonPath;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Diagnosis tasks end to end: evidence gathered from the (faked) services with the caller's token. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
@WithTestResource(EvidenceServer.class)
class DiagnosisTaskTest {

    @Inject
    Pool pool;

    @Test
    void aTaskGathersTheEvidenceWithTheCallersTokenAndFindsTheCause() {
        String job = Jobs.job(Jobs.newId("gpuoom")).publish();
        EvidenceServer.serve(job, Samples.recent("008-gpu_oom.json", job, Instant.now()));
        String token = Tokens.alice();
        String id = given().auth().oauth2(token).contentType("application/json")
                .body("{\"hint\": \"HF Trainer progress bars\", \"metrics\": [\"gpu_util\", \"gpu_mem_used\"]}")
                .post("/api/v1/jobs/" + job + "/diagnoses").then().statusCode(202)
                .header("Location", startsWith("/api/v1/diagnoses/dg-"))
                .body("status", oneOf("PENDING", "RUNNING", "DONE"))
                .body("trigger", is("USER")).body("requestedBy", is("alice"))
                .extract().path("id");
        JsonPath d = Diagnoses.awaitFinished(token, id);
        assertEquals("DONE", d.getString("status"));
        assertEquals("GPU_OOM", d.getString("result.category"));
        assertEquals("TERMINATE", d.getString("result.action"));
        assertEquals(List.of(), d.getList("missingSources"));
        assertEquals("HF Trainer progress bars", d.getString("hint"));
        assertEquals(Duration.ofMinutes(30), Duration.between(Instant.parse(d.getString("window.from")),
                Instant.parse(d.getString("window.to"))));
        for (String path : List.of("", "/pods", "/events", "/logs", "/metrics")) {
            EvidenceServer.server().verify(getRequestedFor(urlPathEqualTo("/api/v1/jobs/" + job + path))
                    .withHeader("Authorization", equalTo("Bearer " + token)));
        }
        EvidenceServer.server().verify(getRequestedFor(urlPathEqualTo("/api/v1/jobs/" + job + "/metrics"))
                .withQueryParam("metric", equalTo("gpu_util")));
        assertTrue(d.getString("result.evidence[0].time").matches(MILLIS), d.getString("result.evidence[0].time"));
    }

    static final String MILLIS = "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z";

    @Test
    void theMetricSeriesTheDiagnosisReadAreKeptWithItAsItsSnapshot() {
        String job = Jobs.job(Jobs.newId("snapshot")).shares("carol").publish();
        JsonNode bundle = Samples.recent("008-gpu_oom.json", job, Instant.now());
        EvidenceServer.serve(job, bundle);
        String id = Diagnoses.ask(Tokens.alice(), job, "{\"metrics\": [\"gpu_util\", \"gpu_mem_used\"]}");
        given().auth().oauth2(Tokens.alice()).get("/api/v1/diagnoses/" + id + "/snapshot").then()
                .statusCode(oneOf(200, 404)); // 404 until DONE
        Diagnoses.awaitFinished(Tokens.alice(), id);
        JsonPath snap = given().auth().oauth2(Tokens.carol()).get("/api/v1/diagnoses/" + id + "/snapshot").then()
                .statusCode(200).extract().jsonPath();
        assertEquals(id, snap.getString("diagnosisId"));
        assertEquals(job, snap.getString("jobId"));
        List<Map<String, Object>> items = snap.getList("items");
        assertEquals(bundle.path("metrics").size(), items.size(), snap.prettify());
        assertEquals(List.of("gpu_mem_used", "gpu_util"), items.stream().map(i -> (String) i.get("metric"))
                .distinct().sorted().toList());
        for (Map<String, Object> series : items) {
            List<?> points = (List<?>) series.get("points");
            assertTrue(!points.isEmpty() && points.size() <= snap.getInt("maxPoints"), series.toString());
            assertTrue(((List<?>) points.get(0)).get(0).toString().matches(MILLIS), points.get(0).toString());
        }
        given().auth().oauth2(Tokens.dave()).get("/api/v1/diagnoses/" + id + "/snapshot").then().statusCode(404)
                .contentType("application/problem+json");
    }

    @Test
    void aSourceThatIsDownIsNamedAndTheRestIsStillDiagnosed() {
        String job = Jobs.job(Jobs.newId("logsdown")).publish();
        EvidenceServer.serve(job, Samples.recent("004-image_pull_failed.json", job, Instant.now()));
        EvidenceServer.down(job, "logs");
        String id = Diagnoses.ask(Tokens.alice(), job, "{}");
        JsonPath d = Diagnoses.awaitFinished(Tokens.alice(), id);
        assertEquals("DONE", d.getString("status"));
        assertEquals(List.of("logs"), d.getList("missingSources"));
        assertTrue(d.getString("sourceErrors.logs").contains("log-service"), d.getString("sourceErrors.logs"));
        assertEquals("IMAGE_PULL_FAILED", d.getString("result.category"));
    }

    @Test
    void aTaskWhoseInstanceDiedIsTakenOverByAnother() {
        String job = Jobs.job(Jobs.newId("orphan")).publish();
        EvidenceServer.serve(job, Samples.recent("004-image_pull_failed.json", job, Instant.now()));
        String id = "dg-orphan-" + job;
        pool.preparedQuery("INSERT INTO diagnosis (id, job_id, trigger, status, requested_by, window_from, window_to, "
                + "attempts, claimed_by, claimed_until, started_at) VALUES ($1, $2, 'USER', 'RUNNING', 'alice', "
                + "now() - interval '30 minutes', now(), 1, 'an-instance-that-died', now() - interval '1 second', now())")
                .execute(Tuple.of(id, job)).await().indefinitely();
        JsonPath d = Diagnoses.awaitFinished(Tokens.alice(), id);
        assertEquals("DONE", d.getString("status"));
        assertEquals("IMAGE_PULL_FAILED", d.getString("result.category"));
        // without the user's token, which is never stored, the service account's is used
        EvidenceServer.server().verify(getRequestedFor(urlPathEqualTo("/api/v1/jobs/" + job + "/events"))
                .withHeader("Authorization", matching("Bearer .+")));
    }

    @Test
    void theHistoryIsNewestFirstAndPagedByCursor() {
        String job = Jobs.job(Jobs.newId("history")).publish();
        String first = Diagnoses.ask(Tokens.alice(), job, "{}");
        String second = Diagnoses.ask(Tokens.alice(), job, "{}");
        String third = Diagnoses.ask(Tokens.alice(), job, "{}");
        assertEquals(List.of(third, second, first), Diagnoses.history(Tokens.alice(), job).getList("items.id"));

        JsonPath page1 = given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + job + "/diagnoses?limit=2")
                .then().statusCode(200).extract().jsonPath();
        assertEquals(List.of(third, second), page1.getList("items.id"));
        JsonPath page2 = given().auth().oauth2(Tokens.alice()).queryParam("limit", 2)
                .queryParam("cursor", page1.getString("nextCursor")).get("/api/v1/jobs/" + job + "/diagnoses")
                .then().statusCode(200).extract().jsonPath();
        assertEquals(List.of(first), page2.getList("items.id"));
        assertNull(page2.getString("nextCursor"));
    }

    @Test
    void aWindowLongerThanThirtyMinutesIs400NamingTo() {
        String job = Jobs.job(Jobs.newId("window")).publish();
        Instant to = Instant.now();
        given().auth().oauth2(Tokens.alice()).contentType("application/json")
                .body("{\"from\": \"" + to.minusSeconds(31 * 60) + "\", \"to\": \"" + to + "\"}")
                .post("/api/v1/jobs/" + job + "/diagnoses").then().statusCode(400)
                .contentType("application/problem+json").body("errors[0].field", is("to"));
        given().auth().oauth2(Tokens.alice()).contentType("application/json")
                .body("{\"from\": \"" + to + "\", \"to\": \"" + to.minusSeconds(60) + "\"}")
                .post("/api/v1/jobs/" + job + "/diagnoses").then().statusCode(400).body("errors[0].field", is("from"));
        given().auth().oauth2(Tokens.alice()).contentType("application/json").body("{\"from\": \"last tuesday\"}")
                .post("/api/v1/jobs/" + job + "/diagnoses").then().statusCode(400).body("errors[0].field", is("from"));
        given().auth().oauth2(Tokens.alice()).contentType("application/json").body("{\"metrics\": [\"gpu util!\"]}")
                .post("/api/v1/jobs/" + job + "/diagnoses").then().statusCode(400)
                .body("errors[0].field", is("metrics[0]"));
    }

    @Test
    void onlyAFromAsksTheThirtyMinutesAfterIt() {
        String job = Jobs.job(Jobs.newId("from")).publish();
        Instant from = Instant.parse("2026-01-01T10:00:00Z");
        given().auth().oauth2(Tokens.alice()).contentType("application/json").body("{\"from\": \"" + from + "\"}")
                .post("/api/v1/jobs/" + job + "/diagnoses").then().statusCode(202)
                .body("window.from", is("2026-01-01T10:00:00.000Z")).body("window.to", is("2026-01-01T10:30:00.000Z"));
    }

    @Test
    void badPagingParametersAre400() {
        String job = Jobs.job(Jobs.newId("paging")).publish();
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + job + "/diagnoses?limit=0").then().statusCode(400)
                .body("errors[0].field", is("limit"));
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + job + "/diagnoses?cursor=nonsense").then()
                .statusCode(400).body("errors[0].field", is("cursor"));
    }

    @Test
    void feedbackIsKeptOncePerUserAndTheLastVerdictWins() {
        String id = doneSharedWithCarol("feedback");
        given().auth().oauth2(Tokens.alice()).contentType("application/json")
                .body("{\"verdict\": \"ACCURATE\", \"comment\": \"the tag was wrong indeed\"}")
                .post("/api/v1/diagnoses/" + id + "/feedback").then().statusCode(201)
                .body("verdict", is("ACCURATE")).body("author", is("alice"));
        given().auth().oauth2(Tokens.alice()).contentType("application/json").body("{\"verdict\": \"POOR\"}")
                .post("/api/v1/diagnoses/" + id + "/feedback").then().statusCode(201).body("verdict", is("POOR"));
        given().auth().oauth2(Tokens.carol()).contentType("application/json").body("{\"verdict\": \"ACCURATE\"}")
                .post("/api/v1/diagnoses/" + id + "/feedback").then().statusCode(201);
        assertEquals(List.of("alice:POOR:IMAGE_PULL_FAILED", "carol:ACCURATE:IMAGE_PULL_FAILED"),
                feedbackRows(id));
    }

    @Test
    void theCallerReadsTheirOwnVerdictBackAndSeesItWithTheDiagnosis() {
        String id = doneSharedWithCarol("myverdict");
        given().auth().oauth2(Tokens.alice()).header("Accept-Language", "zh-CN").get("/api/v1/diagnoses/" + id
                + "/feedback").then().statusCode(404).contentType("application/problem+json")
                .body("detail", containsString("尚未评价"));
        given().auth().oauth2(Tokens.alice()).get("/api/v1/diagnoses/" + id).then().statusCode(200)
                .body("myFeedback", is((Object) null));
        given().auth().oauth2(Tokens.alice()).contentType("application/json")
                .body("{\"verdict\": \"POOR\", \"comment\": \"it was the registry\"}")
                .post("/api/v1/diagnoses/" + id + "/feedback").then().statusCode(201)
                .header("Location", is("/api/v1/diagnoses/" + id + "/feedback"));
        given().auth().oauth2(Tokens.alice()).get("/api/v1/diagnoses/" + id + "/feedback").then().statusCode(200)
                .body("verdict", is("POOR")).body("comment", is("it was the registry")).body("author", is("alice"))
                .body("createdAt", matchesRegex(MILLIS));
        given().auth().oauth2(Tokens.alice()).get("/api/v1/diagnoses/" + id).then().statusCode(200)
                .body("myFeedback.verdict", is("POOR"));
        // carol sees the diagnosis, not alice's verdict
        given().auth().oauth2(Tokens.carol()).get("/api/v1/diagnoses/" + id).then().statusCode(200)
                .body("myFeedback", is((Object) null));
        given().auth().oauth2(Tokens.carol()).get("/api/v1/diagnoses/" + id + "/feedback").then().statusCode(404);
        given().auth().oauth2(Tokens.dave()).get("/api/v1/diagnoses/" + id + "/feedback").then().statusCode(404);
    }

    /** A DONE diagnosis by alice of a job shared with carol. */
    private static String doneSharedWithCarol(String name) {
        String job = Jobs.job(Jobs.newId(name)).shares("carol").publish();
        EvidenceServer.serve(job, Samples.recent("004-image_pull_failed.json", job, Instant.now()));
        String id = Diagnoses.ask(Tokens.alice(), job, "{}");
        Diagnoses.awaitFinished(Tokens.alice(), id);
        return id;
    }

    private List<String> feedbackRows(String id) {
        List<String> out = new ArrayList<>();
        pool.preparedQuery("SELECT author, verdict, category FROM diagnosis_feedback WHERE diagnosis_id = $1 "
                + "ORDER BY author").execute(Tuple.of(id)).await().indefinitely()
                .forEach(r -> out.add(r.getString("author") + ":" + r.getString("verdict") + ":" + r.getString("category")));
        return out;
    }

    @Test
    void anInvalidVerdictIs400NamingIt() {
        String job = Jobs.job(Jobs.newId("verdict")).publish();
        String id = Diagnoses.ask(Tokens.alice(), job, "{}");
        given().auth().oauth2(Tokens.alice()).contentType("application/json").body("{\"verdict\": \"MEH\"}")
                .post("/api/v1/diagnoses/" + id + "/feedback").then().statusCode(400)
                .contentType("application/problem+json").body("errors[0].field", is("verdict"));
        given().auth().oauth2(Tokens.alice()).contentType("application/json").body("{\"comment\": \"no verdict\"}")
                .post("/api/v1/diagnoses/" + id + "/feedback").then().statusCode(400)
                .body("errors[0].field", is("verdict"));
    }

    @Test
    void anUnknownDiagnosisIs404Problem() {
        given().auth().oauth2(Tokens.alice()).get("/api/v1/diagnoses/dg-nope").then().statusCode(404)
                .contentType("application/problem+json").body("detail", containsString("dg-nope"));
    }
}
