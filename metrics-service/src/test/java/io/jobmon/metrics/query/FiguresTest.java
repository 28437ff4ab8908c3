package io.jobmon.metrics.query;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.contracts.events.JobSnapshot;
import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.events.MetricSamples;
import io.jobmon.metrics.Fixtures;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.jobmon.testsupport.Tokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The overview's and the summary's figures (issue #28): a scheduling latency is never negative, a pool's allocated
 * GPUs never exceed its total (each held GPU once, in the pool it belongs to), a job's GPU-hours are its pods'; the
 * Xid that ended a run is in the job's Xid chart.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
class FiguresTest {

    static final Duration WAIT = Duration.ofSeconds(30);

    /** A job of {@code tenant} on {@code cluster}, queue {@code q1}, with its own submission time. */
    static JobSnapshot job(String id, String tenant, String cluster, JobStatus status, List<String> pods,
            List<String> nodes, int gpus, Instant submitted, Instant started, Instant finished) {
        return new JobSnapshot(id, tenant, "alice", "project-nlp", "PRIVATE", List.of(), "train " + id, cluster, "r1",
                "q1", status, null, "A100", gpus, pods, nodes, false, false, 0, 0, submitted, started, finished, 1, false,
                "team-nlp", null, List.of());
    }

    static JsonPath overview(String tenant, Instant from, Instant to) {
        return given().auth().oauth2(Tokens.user("admin").tenant(tenant).roles("admin", "user").get())
                .get("/api/v1/metrics/overview?from=" + from + "&to=" + to).then().statusCode(200).extract().jsonPath();
    }

    @Test
    void aJobTheClusterReportsStartedBeforeItsSubmissionWaitedZeroSecondsNotANegativeTime() {
        String tenant = Fixtures.newId("t");
        String cluster = Fixtures.newId("c");
        Instant started = Instant.parse("2025-09-01T10:00:00Z");
        String early = Fixtures.newId("j");
        String fair = Fixtures.newId("j");
        // job-service's clock stamped the submission 120 s after the start the cluster reported
        Fixtures.sendJob(job(early, tenant, cluster, JobStatus.SUCCEEDED, List.of(early + "-0"), List.of("n1"), 1,
                started.plusSeconds(120), started, started.plusSeconds(600)), started.plusSeconds(600));
        Fixtures.sendJob(job(fair, tenant, cluster, JobStatus.SUCCEEDED, List.of(fair + "-0"), List.of("n1"), 1,
                started.minusSeconds(30), started, started.plusSeconds(600)), started.plusSeconds(600));
        String row = "pools.find { it.cluster == '" + cluster + "' }.";
        await().atMost(WAIT).until(() -> overview(tenant, started.minusSeconds(3600), started.plusSeconds(3600))
                .getInt(row + "jobsStarted") == 2);
        JsonPath o = overview(tenant, started.minusSeconds(3600), started.plusSeconds(3600));
        assertEquals(0.0, o.getDouble(row + "schedulingLatencyP50Seconds"));
        assertEquals(30.0, o.getDouble(row + "schedulingLatencyP99Seconds"));
    }

    @Test
    void aPoolsAllocatedGpusAreItsGpusHeldNowEachOnceAndNeverMoreThanItsTotal() {
        String tenant = Fixtures.newId("t");
        String cluster = Fixtures.newId("c");
        String node = Fixtures.newId("n");
        String unpooled = Fixtures.newId("n");
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        Instant start = now.minus(Duration.ofMinutes(3));
        String a = Fixtures.newId("j");
        String b = Fixtures.newId("j");
        // each asks for 8 GPUs (more than the 4 reporting); they share GPU 1 (time-slicing)
        Fixtures.sendJob(job(a, tenant, cluster, JobStatus.RUNNING, List.of(a + "-0"), List.of(node), 8,
                start.minusSeconds(10), start, null), start);
        Fixtures.sendJob(job(b, tenant, cluster, JobStatus.RUNNING, List.of(b + "-0"), List.of(node, unpooled), 8,
                start.minusSeconds(10), start, null), start);
        List<MetricSamples.Sample> s = new ArrayList<>();
        String[] holder = {a + "-0", a + "-0", null, null};
        for (int g = 0; g < 4; g++) {
            s.addAll(gpu(node, g, holder[g], cluster, "q1", start));
        }
        s.addAll(gpu(node, 1, b + "-0", cluster, "q1", start));
        s.addAll(gpu(node, 2, b + "-0", cluster, "q1", start));
        Fixtures.sendSamples(node, s);
        // a node whose exporter names no pool: its GPU b holds is in b's queue, the free one in no pool
        List<MetricSamples.Sample> u = new ArrayList<>(gpu(unpooled, 0, b + "-0", cluster, null, start));
        u.addAll(gpu(unpooled, 1, null, cluster, null, start));
        Fixtures.sendSamples(unpooled, u);
        String q1 = "pools.find { it.cluster == '" + cluster + "' && it.pool == 'q1' }.";
        String none = "pools.find { it.cluster == '" + cluster + "' && it.pool == null }.";
        await().atMost(WAIT).ignoreExceptions().until(() -> overview(tenant, start, now.plusSeconds(60))
                .getInt(q1 + "gpusAllocated") == 4);
        JsonPath o = overview(tenant, start, now.plusSeconds(60));
        assertEquals(5, o.getInt(q1 + "gpusTotal"), "4 GPUs of the pool's node and the one b holds on the other");
        assertEquals(4, o.getInt(q1 + "gpusAllocated"), "GPUs 0, 1 (held by both, once), 2 and the other node's");
        assertEquals(2, o.getInt(q1 + "jobsRunning"));
        assertEquals(1, o.getInt(none + "gpusTotal"));
        assertEquals(0, o.getInt(none + "gpusAllocated"));
        for (Map<String, Object> p : o.<Map<String, Object>>getList("pools")) {
            assertTrue((Integer) p.get("gpusAllocated") <= (Integer) p.get("gpusTotal"), p.toString());
        }
    }

    /** dcgm-exporter's utilisation of a GPU every 15 s for 3 minutes, as scraped from a target of this pool. */
    static List<MetricSamples.Sample> gpu(String node, int gpu, String pod, String cluster, String pool, Instant start) {
        Map<String, String> labels = Fixtures.gpu(node, gpu, pod);
        labels.put("cluster", cluster);
        if (pool != null) {
            labels.put("pool", pool);
        }
        return Fixtures.series("DCGM_FI_DEV_GPU_UTIL", labels, start, 13, (i, ms) -> 50);
    }

    @Test
    void theXidThatEndedARunScrapedAfterItsEndIsInTheJobsXidChart() {
        String job = Fixtures.newId("j");
        String node = Fixtures.newId("n");
        String pod = job + "-0";
        Instant started = Instant.now().truncatedTo(ChronoUnit.SECONDS).minus(Duration.ofMinutes(5));
        Instant finished = started.plus(Duration.ofMinutes(3));
        Fixtures.sendJob(Fixtures.job(job, JobStatus.FAILED, List.of(pod), List.of(node), 1, started, finished, 3), finished);
        Map<String, String> ok = Fixtures.gpu(node, 0, pod);
        ok.put("err_code", "0");
        ok.put("err_msg", "No Error");
        List<MetricSamples.Sample> s = new ArrayList<>(Fixtures.series("DCGM_FI_DEV_XID_ERRORS", ok, started, 12, (i, ms) -> 0));
        s.addAll(Fixtures.series("DCGM_FI_DEV_GPU_UTIL", Fixtures.gpu(node, 0, pod), started, 12, (i, ms) -> 90));
        // dcgm-exporter 3.x: the last Xid with its code and text, first seen by the scrape 10 s after the rank died
        Map<String, String> xid = Fixtures.gpu(node, 0, pod);
        xid.put("err_code", "79");
        xid.put("err_msg", "GPU has fallen off the bus");
        s.add(new MetricSamples.Sample("DCGM_FI_DEV_XID_ERRORS", xid, finished.plusSeconds(10).toEpochMilli(), 79));
        Fixtures.sendSamples(node, s);
        String url = "/api/v1/jobs/" + job + "/metrics?metric=xid";
        await().atMost(WAIT).ignoreExceptions().until(() -> given().auth().oauth2(Tokens.alice()).get(url).then()
                .extract().jsonPath().getList("series").size() == 1);
        JsonPath x = given().auth().oauth2(Tokens.alice()).get(url).then().statusCode(200).extract().jsonPath();
        assertEquals("79", x.getString("series[0].group.code"));
        assertEquals("labels", x.getString("series[0].attribution"));
        assertEquals(1, x.getInt("series[0].points[0][1]"));
        assertTrue(Instant.parse(x.getString("series[0].points[0][0]")).isBefore(finished), "in the run's last step");
    }

    @Test
    void aJobsGpuHoursAreTheSumOfItsPodsOverTheSameMinutes() {
        String job = Fixtures.newId("j");
        String node = Fixtures.newId("n");
        // 2 pods of 1 GPU each for 130 s, not on minute boundaries
        Instant started = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(10)).plusSeconds(20);
        Instant finished = started.plusSeconds(130);
        List<String> pods = List.of(job + "-0", job + "-1");
        Fixtures.sendJob(Fixtures.job(job, JobStatus.SUCCEEDED, pods, List.of(node), 2, started, finished, 3), finished);
        List<MetricSamples.Sample> s = new ArrayList<>();
        for (int p = 0; p < 2; p++) {
            s.addAll(Fixtures.series("DCGM_FI_DEV_GPU_UTIL", Fixtures.gpu(node, p, pods.get(p)), started, 9, (i, ms) -> 90));
        }
        Fixtures.sendSamples(node, s);
        String url = "/api/v1/jobs/" + job + "/metrics/summary";
        await().atMost(WAIT).ignoreExceptions().until(() -> given().auth().oauth2(Tokens.alice()).get(url).then()
                .extract().jsonPath().getList("pods").size() == 2);
        JsonPath sum = given().auth().oauth2(Tokens.alice()).get(url).then().statusCode(200).extract().jsonPath();
        double pod0 = sum.getDouble("pods[0].gpuHours");
        double pod1 = sum.getDouble("pods[1].gpuHours");
        assertEquals(130 / 3600.0, pod0, 0.001, "a pod's GPU for the 130 s of the run, not 3 whole minutes");
        assertEquals(130 / 3600.0, pod1, 0.001);
        assertEquals(pod0 + pod1, sum.getDouble("gpuHours"), 1e-9, "the job's GPU-hours are its pods'");
    }
}
