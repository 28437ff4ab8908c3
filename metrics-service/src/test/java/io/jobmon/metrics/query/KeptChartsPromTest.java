package io.jobmon.metrics.query;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.jobmon.contracts.events.JobStatus;
import io.jobmon.metrics.Fixtures;
import io.jobmon.metrics.store.SettledReads;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.MetricsEngineTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.jobmon.testsupport.Tokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A repeated chart's answer kept in prometheus mode (ADR 0056): kept only when all settled and its view unchanged,
 * the caller's access checked before the kept bytes leave, 304 for its ETag.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
@WithTestResource(MetricsEngineTestResource.class)
class KeptChartsPromTest {

    static final Instant T0 = JobChartsTest.T0;
    static final Duration WAIT = JobChartsTest.WAIT;
    static final String Q = "metric=gpu_util&groupBy=pod&step=60&" + JobChartsTest.range(T0, T0.plusSeconds(600));

    @Inject
    KeptCharts kept;

    static Response get(String token, String job, String query) {
        return given().auth().oauth2(token).get("/api/v1/jobs/" + job + "/metrics?" + query);
    }

    /** Kept notices count a read as begun {@link SettledReads#VISIBLE_MS} before it: wait that long once. */
    static void replicaReadsLongEnough() throws InterruptedException {
        Thread.sleep(SettledReads.VISIBLE_MS + 500);
    }

    /** Ten minutes at T0 (settled) of one GPU of the job's pod at 40 %, the chart {@link #Q} shown once and again. */
    void charted(String job, String node, int gpus, boolean otherPod) throws InterruptedException {
        Fixtures.sendJob(Fixtures.job(job, JobStatus.RUNNING, List.of(job + "-0"), List.of(node), gpus, T0, null, 1), T0);
        Fixtures.sendSamples(node, Fixtures.series("DCGM_FI_DEV_GPU_UTIL", Fixtures.gpu(node, 0, job + "-0"), T0, 40,
                (i, ms) -> 40));
        if (otherPod) {
            // a second pod's GPU at 80 %, not (yet) the job's
            Fixtures.sendSamples(node, Fixtures.series("DCGM_FI_DEV_GPU_UTIL", Fixtures.gpu(node, 1, job + "-1"), T0,
                    40, (i, ms) -> 80));
        }
        await().atMost(WAIT).ignoreExceptions()
                .until(() -> Fixtures.points(get(Tokens.alice(), job, Q).then().extract().jsonPath(), 0) == 10);
        replicaReadsLongEnough();
    }

    @Test
    void aSettledChartIsKeptForItsViewWith304ForItsETagAnd404ForAnotherTenant() throws Exception {
        String job = Fixtures.newId("j");
        charted(job, Fixtures.newId("n"), 1, false);
        kept.clear();
        Response first = get(Tokens.alice(), job, Q);
        first.then().statusCode(200).contentType("application/json");
        assertEquals(1, kept.size(), "the settled chart is kept");
        Response again = get(Tokens.alice(), job, Q);
        assertEquals(first.asString(), again.asString());
        assertEquals(first.header("ETag"), again.header("ETag"));
        given().auth().oauth2(Tokens.alice()).header("If-None-Match", first.header("ETag"))
                .get("/api/v1/jobs/" + job + "/metrics?" + Q).then().statusCode(304);
        given().auth().oauth2(Tokens.alice()).header("If-None-Match", "\"other\"")
                .get("/api/v1/jobs/" + job + "/metrics?" + Q).then().statusCode(200);
        // another tenant's user: the job is not theirs, whatever this replica keeps of its chart
        String mallory = Tokens.user("mallory").tenant("t2").roles("user").get();
        get(mallory, job, Q).then().statusCode(404).contentType("application/problem+json");
        given().auth().oauth2(mallory).header("If-None-Match", first.header("ETag"))
                .get("/api/v1/jobs/" + job + "/metrics?" + Q).then().statusCode(404);
    }

    @Test
    void aChangeInTheViewGivesTheNewAnswer() throws Exception {
        String job = Fixtures.newId("j");
        String node = Fixtures.newId("n");
        charted(job, node, 2, true);
        Response first = get(Tokens.alice(), job, Q);
        assertEquals(1, first.jsonPath().getList("series").size());
        assertEquals(first.header("ETag"), get(Tokens.alice(), job, Q).header("ETag"), "kept");
        // the job's second pod arrives: its view changes (job:<id>), so does the answer
        Fixtures.sendJob(Fixtures.job(job, JobStatus.RUNNING, List.of(job + "-0", job + "-1"), List.of(node), 2, T0,
                null, 2), T0.plusSeconds(1));
        await().atMost(WAIT).until(() -> get(Tokens.alice(), job, Q).jsonPath().getList("series").size() == 2);
        Response after = get(Tokens.alice(), job, Q);
        assertNotEquals(first.header("ETag"), after.header("ETag"));
        assertEquals(80.0, after.jsonPath().getDouble("series[1].points[0][1]"));
    }

    @Test
    void aNewSampleInAnUnsettledRangeGivesTheNewAnswer() throws Exception {
        String job = Fixtures.newId("j");
        String node = Fixtures.newId("n");
        Instant start = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(1));
        Fixtures.sendJob(Fixtures.job(job, JobStatus.RUNNING, List.of(job + "-0"), List.of(node), 1, start, null, 1),
                start);
        var gpu = Fixtures.gpu(node, 0, job + "-0");
        Fixtures.sendSamples(node, Fixtures.series("DCGM_FI_DEV_GPU_UTIL", gpu, start, 2, (i, ms) -> 40));
        String q = "metric=gpu_util&step=15&" + JobChartsTest.range(start, start.plus(Duration.ofMinutes(2)));
        await().atMost(WAIT).ignoreExceptions()
                .until(() -> Fixtures.points(get(Tokens.alice(), job, q).then().extract().jsonPath(), 0) == 2);
        replicaReadsLongEnough();
        kept.clear();
        String etag = get(Tokens.alice(), job, q).header("ETag");
        assertEquals(0, kept.size(), "a range after the settled line is not kept");
        Fixtures.sendSamples(node, Fixtures.series("DCGM_FI_DEV_GPU_UTIL", gpu, start.plusSeconds(30), 1,
                (i, ms) -> 90));
        await().atMost(WAIT).until(() -> Fixtures.points(get(Tokens.alice(), job, q).jsonPath(), 0) == 3);
        Response after = get(Tokens.alice(), job, q);
        assertNotEquals(etag, after.header("ETag"));
        assertEquals(90.0, after.jsonPath().getDouble("series[0].points[2][1]"));
    }
}
