package io.jobmon.metrics.query;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.events.MetricSamples;
import io.jobmon.metrics.Fixtures;
import io.jobmon.metrics.alerting.JobGauges;
import io.jobmon.metrics.store.Compactor;
import io.jobmon.metrics.store.Partitions;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.jobmon.testsupport.Tokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Who sees which charts; the job summary; a node's chart and holders; the overview; the alert gauges; retention. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
class AccessAndSummaryTest {

    static final Instant T0 = Instant.parse("2025-08-01T00:00:00Z");
    static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    Compactor compactor;
    @Inject
    SummaryJob summaries;
    @Inject
    JobGauges gauges;
    @Inject
    Partitions partitions;

    /** A finished 2-GPU job of alice's: GPU 0 busy at 80 %, GPU 1 idle at 2 %, one hour. */
    String finishedJob(String visibility, List<String> shares) {
        String job = Fixtures.newId("j");
        String node = Fixtures.newId("n");
        Instant end = T0.plus(Duration.ofHours(1));
        Fixtures.sendJob(Fixtures.job(job, "alice", "t1", visibility, shares, JobStatus.SUCCEEDED, List.of(job + "-0"),
                List.of(node), 2, T0, end, 5), end);
        List<MetricSamples.Sample> s = new ArrayList<>();
        for (int g = 0; g < 2; g++) {
            int gpu = g;
            s.addAll(Fixtures.series("DCGM_FI_DEV_GPU_UTIL", Fixtures.gpu(node, g, job + "-0"), T0, 240,
                    (i, ms) -> gpu == 0 ? 80 : 2));
            s.addAll(Fixtures.series("DCGM_FI_DEV_FB_USED", Fixtures.gpu(node, g, job + "-0"), T0, 240,
                    (i, ms) -> gpu == 0 ? 40_000 + i : 500));
        }
        Fixtures.sendSamples(node, s);
        await().atMost(WAIT).ignoreExceptions().until(() -> Fixtures.points(given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + job + "/metrics?step=60")
                .then().extract().jsonPath(), 0) == 60);
        return job;
    }

    @Test
    void theJobsViewPermissionGuardsItsChartsAndSummaryAndAnythingElseIs404() {
        String shared = finishedJob("PRIVATE", List.of("carol"));
        String project = finishedJob("PROJECT", List.of());
        for (String path : List.of("/metrics", "/metrics/summary")) {
            given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + shared + path).then().statusCode(200);
            given().auth().oauth2(Tokens.carol()).get("/api/v1/jobs/" + shared + path).then().statusCode(200);
            given().auth().oauth2(Tokens.bob()).get("/api/v1/jobs/" + project + path).then().statusCode(200);
            given().auth().oauth2(Tokens.admin()).get("/api/v1/jobs/" + shared + path).then().statusCode(200);
            given().auth().oauth2(Tokens.bob()).get("/api/v1/jobs/" + shared + path).then().statusCode(404)
                    .contentType("application/problem+json");
            given().auth().oauth2(Tokens.carol()).get("/api/v1/jobs/" + project + path).then().statusCode(404);
            given().auth().oauth2(Tokens.dave()).get("/api/v1/jobs/" + shared + path).then().statusCode(404);
            given().auth().oauth2(Tokens.user("admin2").tenant("t2").roles("admin").get())
                    .get("/api/v1/jobs/" + shared + path).then().statusCode(404);
            given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/no-such-job" + path).then().statusCode(404);
        }
        for (String path : List.of("/api/v1/nodes/any/metrics", "/api/v1/metrics/overview", "/api/v1/metrics/targets")) {
            given().auth().oauth2(Tokens.alice()).get(path).then().statusCode(403).contentType("application/problem+json");
            given().auth().oauth2(Tokens.admin()).get(path).then().statusCode(200);
        }
        given().auth().oauth2(Tokens.dave()).get("/api/v1/metrics/catalogue").then().statusCode(200)
                .body("items.find { it.name == 'gpu_util' }.unit", equalTo("%"))
                .body("items.find { it.name == 'net_rx' }.kind", equalTo("rate"));
        // a parameter no endpoint takes is named, not ignored
        String job = finishedJob("PRIVATE", List.of());
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + job + "/metrics?metric=gpu_util&gruopBy=gpu").then()
                .statusCode(400).contentType("application/problem+json").body("errors[0].field", equalTo("gruopBy"))
                .body("errors[0].message", containsString("groupBy"));
        given().auth().oauth2(Tokens.dave()).get("/api/v1/metrics/catalogue?lang=zh").then().statusCode(400)
                .body("errors[0].field", equalTo("lang")).body("errors[0].code", equalTo("field.no-parameters"));
    }

    /** diagnosis-service's own token (role service, no tenant) reads any job's charts, and nothing else. */
    @Test
    void thePlatformsServiceTokenReadsAnyJobsChartsAndNothingElse() {
        String shared = finishedJob("PRIVATE", List.of("carol"));
        given().auth().oauth2(Tokens.service()).get("/api/v1/jobs/" + shared + "/metrics?metric=gpu_util&groupBy=gpu&step=60")
                .then().statusCode(200).body("series.size()", equalTo(2));
        given().auth().oauth2(Tokens.service()).get("/api/v1/jobs/no-such-job/metrics").then().statusCode(404);
        // a person's token naming the role gains nothing (it is not the service client's)
        given().auth().oauth2(Tokens.user("mallory").tenant("t2").roles("user", "service").get())
                .get("/api/v1/jobs/" + shared + "/metrics").then().statusCode(404);
        for (String path : List.of("/api/v1/nodes/any/metrics", "/api/v1/metrics/overview", "/api/v1/metrics/targets")) {
            given().auth().oauth2(Tokens.service()).get(path).then().statusCode(403).contentType("application/problem+json");
        }
        given().auth().oauth2(Tokens.service()).contentType("application/x-protobuf").body(new byte[] {1})
                .post("/api/v1/write").then().statusCode(403);
    }

    @Test
    void aJobWhosePodsRunOnSeveralNodesIsKnownAndDoesNotHoldUpTheJobsAfterIt() {
        // Two pods on two nodes: no node's interval can name its pods from the snapshot alone.
        String wide = Fixtures.newId("j");
        String after = Fixtures.newId("j");
        Fixtures.sendJob(Fixtures.job(wide, JobStatus.RUNNING, List.of(wide + "-0", wide + "-1"),
                List.of(Fixtures.newId("n"), Fixtures.newId("n")), 16, T0, null, 3), T0);
        Fixtures.sendJob(Fixtures.job(after, JobStatus.RUNNING, List.of(after + "-0"), List.of(Fixtures.newId("n")), 8,
                T0, null, 3), T0);
        for (String job : List.of(wide, after)) {
            await().atMost(WAIT).ignoreExceptions().until(() -> given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + job + "/metrics")
                    .statusCode() == 200);
        }
    }

    @Test
    void badChartParametersAre400sNamingTheParameter() {
        String job = finishedJob("PRIVATE", List.of());
        String base = "/api/v1/jobs/" + job + "/metrics?";
        for (String[] c : new String[][] {{"metric=gpu_utilisation", "metric"}, {"from=yesterday", "from"},
            {"groupBy=rack", "groupBy"}, {"aggregation=p99", "aggregation"}, {"step=0", "step"},
            {"resolution=max", "resolution"}, {"from=2025-08-02T00:00:00Z&to=2025-08-01T00:00:00Z", "from"},
            {"from=2020-01-01T00:00:00Z&to=2025-01-01T00:00:00Z", "from"}}) {
            given().auth().oauth2(Tokens.alice()).get(base + c[0]).then().statusCode(400)
                    .contentType("application/problem+json").body("errors[0].field", equalTo(c[1]));
        }
    }

    @Test
    void aFinishedJobsSummaryIsWrittenOnceWithAveragesPeaksAndIdleGpuHoursPerPod() {
        String job = finishedJob("PRIVATE", List.of());
        var live = given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + job + "/metrics/summary").then()
                .statusCode(200).extract().jsonPath();
        assertEquals(false, live.getBoolean("final"));
        compactor.compactAll(T0.plus(Duration.ofDays(1)).toEpochMilli()).await().atMost(WAIT);
        summaries.writeDue(Instant.now().plus(Duration.ofHours(1))).await().atMost(WAIT);
        var s = given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + job + "/metrics/summary").then()
                .statusCode(200).extract().jsonPath();
        assertEquals(true, s.getBoolean("final"));
        assertEquals(41.0, s.getDouble("avgGpuUtil"), 0.001);
        assertEquals(80.0, s.getDouble("peakGpuUtil"));
        assertEquals(40_239.0, s.getDouble("peakGpuMemMiB"));
        assertEquals(2.0, s.getDouble("gpuHours"), 0.001, "2 GPUs for 1 hour");
        assertEquals(1.0, s.getDouble("idleGpuHours"), 0.001, "GPU 1 under 5 % all along");
        assertEquals(job + "-0", s.getString("pods[0].pod"));
        assertEquals(2, s.getInt("pods[0].gpus"));
    }

    @Test
    void anAdminSeesANodesGpusWithTheJobsThatHeldThemAndTheTenantsOverview() {
        String job = finishedJob("PRIVATE", List.of());
        var chart = given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + job + "/metrics?groupBy=node").then()
                .extract().jsonPath();
        String node = chart.getString("series[0].group.node");
        var n = given().auth().oauth2(Tokens.admin()).get("/api/v1/nodes/" + node + "/metrics?metric=gpu_util&from=" + T0
                + "&to=" + T0.plus(Duration.ofHours(1))).then().statusCode(200).extract().jsonPath();
        assertEquals(2, n.getList("chart.series").size());
        assertEquals("gpu", n.getString("chart.groupBy"));
        assertTrue(n.getList("jobs.jobId").contains(job));
        var o = given().auth().oauth2(Tokens.admin()).get("/api/v1/metrics/overview?from=" + T0.minus(Duration.ofHours(1))
                + "&to=" + T0.plus(Duration.ofHours(2))).then().statusCode(200).extract().jsonPath();
        assertEquals("t1", o.getString("tenant"));
        int finished = o.getInt("pools.find { it.pool == 'gpu-a100' }.jobsFinished");
        assertTrue(finished >= 1);
        assertEquals(60.0, o.getDouble("pools.find { it.pool == 'gpu-a100' }.schedulingLatencyP50Seconds"));
    }

    @Test
    void aRunningJobsGpuUtilisationAndIdleGpusAreGaugesForTheAlertRules() {
        String job = Fixtures.newId("j");
        String node = Fixtures.newId("n");
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        Instant start = now.minus(Duration.ofMinutes(12));
        Fixtures.sendJob(Fixtures.job(job, JobStatus.RUNNING, List.of(job + "-0"), List.of(node), 2, start, null, 1), start);
        List<MetricSamples.Sample> s = new ArrayList<>();
        s.addAll(Fixtures.series("DCGM_FI_DEV_GPU_UTIL", Fixtures.gpu(node, 0, job + "-0"), start, 49, (i, ms) -> 90));
        s.addAll(Fixtures.series("DCGM_FI_DEV_GPU_UTIL", Fixtures.gpu(node, 1, job + "-0"), start, 49, (i, ms) -> 1));
        Fixtures.sendSamples(node, s);
        await().atMost(WAIT).ignoreExceptions().until(() -> Fixtures.points(given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + job + "/metrics")
                .then().extract().jsonPath(), 0) == 49);
        gauges.refresh(now.plusSeconds(1)).await().atMost(WAIT);
        String labels = "cluster=\"c1\",job_id=\"" + job + "\",owner=\"alice\",queue=\"gpu-a100\",tenant=\"t1\"";
        var metrics = given().get(Fixtures.management("/q/metrics")).then()
                .body(containsString("jobmon_job_gpu_utilization_percent{" + labels + "} 45.5"))
                .body(containsString("jobmon_job_gpus_idle{" + labels + "} 1.0"))
                .body(containsString("jobmon_job_gpus{" + labels + "} 2.0"));
        if (storesSamples()) {
            metrics.body(containsString("jobmon_metrics_ingest_lag_seconds"));
        }
    }

    /**
     * Whether this service stores the samples itself (the builtin store), and so reports the ingest lag of its store.
     */
    protected boolean storesSamples() {
        return true;
    }

    @Test
    void retentionDropsWholeDayPartitions() {
        long old = Instant.parse("2001-02-03T10:00:00Z").toEpochMilli();
        partitions.ensure(Partitions.Table.CHUNK, List.of(old)).await().atMost(WAIT);
        partitions.ensure(Partitions.Table.ROLLUP_1H, List.of(old)).await().atMost(WAIT);
        List<String> dropped = partitions.dropBefore(Partitions.Table.CHUNK, old + Duration.ofDays(1).toMillis())
                .await().atMost(WAIT);
        assertTrue(dropped.contains("chunk_p20010203"), dropped.toString());
        assertTrue(partitions.dropBefore(Partitions.Table.ROLLUP_1H, Instant.parse("2001-03-01T00:00:00Z").toEpochMilli())
                .await().atMost(WAIT).contains("rollup_1h_p200102"));
    }
}
