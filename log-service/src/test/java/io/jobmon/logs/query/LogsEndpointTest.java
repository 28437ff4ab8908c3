package io.jobmon.logs.query;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jobmon.contracts.events.Topics;
import io.jobmon.logs.Fixtures;
import io.jobmon.contracts.events.JobSnapshot;
import io.jobmon.logs.intake.Shippers;
import io.jobmon.testsupport.KafkaTestClient;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.jobmon.testsupport.Tokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import io.restassured.response.ValidatableResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** From shipper records on jobmon.logs.lines to GET /api/v1/jobs/{id}/logs, on a real broker and PostgreSQL. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
class LogsEndpointTest {

    static final Instant T0 = Instant.parse("2026-07-13T10:00:00Z");
    static String job;
    static String privateJob;
    /** The class that seeded them: a subclass runs against another store and schema ({@code LogsEndpointS3Test}). */
    static Class<?> seededBy;

    /** A PROJECT-visible job shared with carol, 30 lines of pod w0 and 5 of pod w1 (w1 without the job label). */
    @BeforeEach
    void seed() {
        if (job != null && seededBy == getClass()) {
            return;
        }
        seededBy = getClass();
        job = Fixtures.newJob();
        privateJob = Fixtures.newJob();
        Fixtures.publish(Fixtures.job(job, "PROJECT", List.of("carol"), List.of(job + "-w0", job + "-w1"), 1));
        Fixtures.publish(Fixtures.job(privateJob, "PRIVATE", List.of("carol"), List.of(privateJob + "-w0"), 1));
        List<String> records = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            records.add(Fixtures.fluentBit(job, job + "-w0", "trainer", T0.plusSeconds(i * 2L), "step " + i + " loss=" + (2.0 - i / 100.0)));
        }
        for (int i = 0; i < 5; i++) {
            records.add(Fixtures.fluentBit(null, job + "-w1", "trainer", T0.plusSeconds(i * 2L + 1), "w1 step " + i));
        }
        records.add(Fixtures.fluentBit(job, job + "-w0", "trainer", T0.plusSeconds(70),
                "Traceback (most recent call last): RuntimeError: CUDA error: an illegal memory access"));
        records.add(Fixtures.fluentBit(job, job + "-w0", "trainer", T0.plusSeconds(71), "export HF_TOKEN=hf_secret_value"));
        records.add(Fixtures.fluentBit(privateJob, privateJob + "-w0", "trainer", T0, "private line"));
        // a kubelet line naming the job's pod, and one naming another pod of the node (not the job's)
        records.add(Shippers.record("fluent-bit-systemd-kubelet").replace("llama-sft-worker-0", job + "-w0"));
        records.add(Shippers.record("fluent-bit-systemd-kubelet"));
        Fixtures.sendAll(records);
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> lines(Tokens.alice(), job, "type", "user", "limit", "500").size() == 37);
    }

    static ValidatableResponse get(String token, String path) {
        return given().auth().oauth2(token).get("/api/v1/jobs/" + path).then();
    }

    static List<String> lines(String token, String id, String... params) {
        var req = given().auth().oauth2(token);
        for (int i = 0; i < params.length; i += 2) {
            req.queryParam(params[i], params[i + 1]);
        }
        return req.get("/api/v1/jobs/" + id + "/logs").then().statusCode(200)
                .extract().jsonPath().getList("items.line", String.class);
    }

    @Test
    void linesOfBothPodsShowInTimeOrderWithPodContainerStreamAndCursor() {
        get(Tokens.alice(), job + "/logs?type=user&limit=3").statusCode(200)
                .body("items.line", contains("step 0 loss=2.0", "w1 step 0", "step 1 loss=1.99"))
                .body("items[0].time", equalTo("2026-07-13T10:00:00.000Z"))
                .body("items[0].pod", equalTo(job + "-w0"))
                .body("items[1].pod", equalTo(job + "-w1"))
                .body("items[0].container", equalTo("trainer"))
                .body("items[0].stream", equalTo("user"))
                .body("items[0].source", equalTo("stdout"))
                .body("items[0].node", equalTo("gpu-node-07"))
                .body("items[0].cursor", notNullValue())
                .body("nextCursor", notNullValue());
    }

    @Test
    void everyCallerTheAccessRuleLetsReadSeesTheLinesAndNobodyElseSeesTheJob() {
        for (String ok : List.of(Tokens.alice(), Tokens.carol(), Tokens.bob(), Tokens.admin())) {
            get(ok, job + "/logs?limit=1").statusCode(200).body("items", hasSize(1));
        }
        get(Tokens.user("erin").get(), job + "/logs").statusCode(404).contentType("application/problem+json");
        get(Tokens.dave(), job + "/logs").statusCode(404);
        get(Tokens.user("admin").tenant("t2").roles("admin").get(), job + "/logs").statusCode(404);
        // PRIVATE: the shared user reads it, a project member does not see it
        get(Tokens.carol(), privateJob + "/logs?type=user").statusCode(200).body("items.line", contains("private line"));
        get(Tokens.bob(), privateJob + "/logs").statusCode(404);
        get(Tokens.alice(), "no-such-job/logs").statusCode(404);
    }

    /** diagnosis-service's own token (role service, no tenant) reads any job's lines, and does nothing else. */
    @Test
    void thePlatformsServiceTokenReadsAnyJobsLinesAndAPersonNamingTheRoleDoesNot() {
        get(Tokens.service(), privateJob + "/logs?type=user").statusCode(200).body("items.line", contains("private line"));
        get(Tokens.service(), job + "/logs/count?q=loss").statusCode(200).body("lines", equalTo(30));
        get(Tokens.user("mallory").tenant("t2").roles("user", "service").get(), privateJob + "/logs").statusCode(404);
        given().auth().oauth2(Tokens.service()).contentType("application/json").body("{}")
                .post("/api/v1/jobs/" + job + "/logs").then().statusCode(403).contentType("application/problem+json");
    }

    @Test
    void pagingForwardAndBackwardVisitsEveryLineOnce() {
        List<String> all = lines(Tokens.alice(), job, "type", "user", "limit", "500");
        assertEquals(37, all.size());
        assertEquals(all, pages("type=user&limit=7", true));
        List<String> backward = pages("type=user&limit=5&direction=backward", false);
        java.util.Collections.reverse(backward);
        assertEquals(all, backward);
    }

    private List<String> pages(String query, boolean forward) {
        List<String> out = new ArrayList<>();
        String cursor = null;
        do {
            var body = given().auth().oauth2(Tokens.alice())
                    .get("/api/v1/jobs/" + job + "/logs?" + query + (cursor == null ? "" : "&cursor=" + cursor))
                    .then().statusCode(200).extract().jsonPath();
            out.addAll(body.getList("items.line", String.class));
            cursor = body.getString("nextCursor");
        } while (cursor != null);
        return out;
    }

    @Test
    void aLinesCursorContinuesAfterItEvenWhenNewLinesArrive() {
        var first = given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + job + "/logs?type=user&limit=2")
                .then().extract().jsonPath();
        String cursor = first.getString("items[1].cursor");
        List<String> next = lines(Tokens.alice(), job, "type", "user", "limit", "2", "cursor", cursor);
        assertEquals(List.of("step 1 loss=1.99", "w1 step 1"), next);
    }

    @Test
    void tailIsTheLastLinesInTimeOrder() {
        assertEquals(List.of("Traceback (most recent call last): RuntimeError: CUDA error: an illegal memory access",
                "export HF_TOKEN=****"), lines(Tokens.alice(), job, "type", "user", "tail", "2"));
        // the page's parameters are one bean for a job's and a node's lines: a misspelt one is still a 400 naming it
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + job + "/logs?type=user&tial=2").then()
                .statusCode(400).contentType("application/problem+json").body("errors[0].field", org.hamcrest.Matchers.equalTo("tial"));
    }

    @Test
    void keywordRegexAndTimeRangeSelectLines() {
        assertEquals(List.of("step 10 loss=1.9", "step 11 loss=1.89"), lines(Tokens.alice(), job, "q", "step 1", "type", "user", "limit", "2", "from", "2026-07-13T10:00:20Z"));
        assertEquals(1, lines(Tokens.alice(), job, "q", "cuda ERROR", "ignoreCase", "true").size());
        assertEquals(0, lines(Tokens.alice(), job, "q", "cuda ERROR").size());
        assertEquals(List.of("w1 step 3", "w1 step 4"), lines(Tokens.alice(), job, "regex", "^w1 step [34]$"));
        assertEquals(5, lines(Tokens.alice(), job, "type", "user", "pod", job + "-w1").size());
        assertEquals(3, lines(Tokens.alice(), job, "type", "user", "from", "2026-07-13T10:00:00Z", "to", "2026-07-13T10:00:03Z").size());
    }

    @Test
    void aSecretIsStoredMaskedAndTheLineSaysSo() {
        get(Tokens.alice(), job + "/logs?q=HF_TOKEN").statusCode(200)
                .body("items[0].line", equalTo("export HF_TOKEN=****")).body("items[0].masked", equalTo(true));
        get(Tokens.alice(), job + "/logs?q=hf_secret_value").statusCode(200).body("items", hasSize(0));
    }

    /**
     * The job's own lines say when it ran by its nodes' clocks: a node clock behind jobmon's (or a replayed bundle)
     * puts them before the job's submission, and the system lines of that time that are the job's still show.
     */
    @Test
    void systemLinesOfTheTimeOfTheJobsOwnLinesShowEvenBeforeItsSubmission() {
        String late = Fixtures.newJob();
        JobSnapshot s = Fixtures.job(late, "PRIVATE", List.of(), List.of(late + "-w0"), 1);
        Fixtures.publish(new JobSnapshot(s.jobId(), s.tenant(), s.owner(), s.project(), s.visibility(), s.shares(),
                s.name(), s.cluster(), s.region(), s.queue(), s.status(), null, s.gpuType(), s.gpuCount(), s.pods(),
                s.nodes(), false, false, 0, 0, Instant.parse("2026-07-13T12:00:00Z"), null, null, 1, false,
                s.namespace(), null, List.of()));
        Fixtures.sendAll(List.of(Fixtures.fluentBit(late, late + "-w0", "trainer", Instant.parse("2026-07-13T10:14:00Z"),
                "step 1 loss=1.0"), Shippers.record("fluent-bit-systemd-kubelet").replace("llama-sft-worker-0", late + "-w0")));
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> lines(Tokens.alice(), late, "type",
                "system").size() == 1);
        get(Tokens.alice(), late + "/logs?type=system").statusCode(200).body("items[0].source", equalTo("kubelet"))
                .body("items[0].attribution.reason", equalTo("pod"));
    }

    @Test
    void kubeletLinesOfTheJobsNodeNamingItsPodAreItsSystemLogWithTheReason() {
        get(Tokens.alice(), job + "/logs?type=system").statusCode(200)
                .body("items", hasSize(1)).body("items[0].source", equalTo("kubelet")).body("items[0].stream", equalTo("system"))
                .body("items[0].pod", nullValue()).body("items[0].node", equalTo("gpu-node-07"))
                .body("items[0].line", org.hamcrest.Matchers.containsString("pod=\"team-nlp/" + job + "-w0\""))
                .body("items[0].attribution.reason", equalTo("pod")).body("items[0].attribution.pod", equalTo(job + "-w0"));
    }

    @Test
    void aRecordNoShipperWroteGoesToTheDlqWithTheReason() {
        String marker = "not-a-log-" + Fixtures.newJob();
        String record = "{\"foo\":\"" + marker + "\"}";
        KafkaTestClient.send(Topics.LOGS_LINES, "k", record);
        List<ConsumerRecord<String, String>> dead = KafkaTestClient.await(Topics.dlq(Topics.LOGS_LINES),
                r -> r.value().contains(marker), 1, Duration.ofSeconds(60));
        assertEquals(1, dead.size());
        assertEquals(record, dead.get(0).value(), "the record as it was sent, byte for byte");
        assertEquals("k", dead.get(0).key());
        String reason = new String(dead.get(0).headers().lastHeader("dead-letter-reason").value(), StandardCharsets.UTF_8);
        assertEquals(true, reason.contains("not a Fluent Bit, Vector or jobmon log record"), reason);
    }

    @Test
    void badParametersAreProblemsNamingTheField() {
        get(Tokens.alice(), job + "/logs?type=stdout&limit=0&from=yesterday&direction=up&cursor=xyz").statusCode(400)
                .contentType("application/problem+json")
                .body("errors.field", org.hamcrest.Matchers.containsInAnyOrder("type", "limit", "from", "direction", "cursor"));
        get(Tokens.alice(), job + "/logs?regex=(unclosed").statusCode(400).body("errors[0].field", equalTo("regex"));
        get(Tokens.alice(), job + "/logs?tail=100000").statusCode(400).body("errors[0].field", equalTo("tail"));
    }
}
