package io.jobmon.metrics.query;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.events.MetricSamples;
import io.jobmon.metrics.Fixtures;
import io.jobmon.metrics.store.Compactor;
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

/** Samples on Kafka → stored → a job's charts, before and after compaction, on real PostgreSQL and Kafka. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
class JobChartsTest {

    static final Instant T0 = Instant.parse("2025-06-01T10:00:00Z");
    static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    Compactor compactor;

    @Inject
    Pool pool;

    static JsonPath chart(String job, String query) {
        return given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + job + "/metrics?" + query)
                .then().statusCode(200).extract().jsonPath();
    }

    static double value(JsonPath chart, int series, int point) {
        return chart.getDouble("series[" + series + "].points[" + point + "][1]");
    }

    static String range(Instant from, Instant to) {
        return "from=" + from + "&to=" + to;
    }

    @Test
    void aJobsGpuSeriesAreTheOnesDcgmLabelledWithItsPodsPerGpuAndAveragedForTheJob() {
        String job = Fixtures.newId("j");
        String other = Fixtures.newId("o");
        String node = Fixtures.newId("n");
        Fixtures.sendJob(Fixtures.job(job, JobStatus.RUNNING, List.of(job + "-0"), List.of(node), 4, T0, null, 1), T0);
        List<MetricSamples.Sample> samples = new ArrayList<>();
        for (int g = 0; g < 8; g++) {
            int gpu = g;
            samples.addAll(Fixtures.series("DCGM_FI_DEV_GPU_UTIL", Fixtures.gpu(node, g, g < 4 ? job + "-0" : other + "-0"),
                    T0, 240, (i, ms) -> 10 * gpu));
        }
        Fixtures.sendSamples(node, samples);
        String q = "metric=gpu_util&" + range(T0, T0.plus(Duration.ofHours(1)));
        await().atMost(WAIT).ignoreExceptions().until(() -> chart(job, q + "&groupBy=gpu").getList("series").size() == 4
                && Fixtures.points(chart(job, q + "&groupBy=gpu"), 3) == 240);
        JsonPath byGpu = chart(job, q + "&groupBy=gpu");
        assertEquals(15, byGpu.getLong("stepSeconds"));
        assertEquals("raw", byGpu.getString("resolution"));
        for (int g = 0; g < 4; g++) {
            assertEquals(Map.of("node", node, "gpu", String.valueOf(g), "uuid", "GPU-" + node + "-" + g, "pciBusId",
                    "00000000:0" + g + ":00.0", "pod", job + "-0"), byGpu.getMap("series[" + g + "].group"));
            assertEquals(10.0 * g, value(byGpu, g, 0));
            assertEquals("labels", byGpu.getString("series[" + g + "].attribution"));
            assertEquals("%", byGpu.getString("series[" + g + "].unit"));
        }
        JsonPath whole = chart(job, q);
        assertEquals(1, whole.getList("series").size());
        assertEquals(15.0, value(whole, 0, 0), "the average of the job's four GPUs, not the node's eight");
        assertEquals(ms(T0), whole.getString("series[0].points[0][0]"));
        JsonPath max = chart(job, q + "&aggregation=max&groupBy=pod");
        assertEquals(30.0, value(max, 0, 0));
        assertEquals(Map.of("pod", job + "-0"), max.getMap("series[0].group"));
    }

    @Test
    void withoutPodLabelsAJobAloneOnANodeWithAllItsGpusGetsThemByPlacementAndAPartialOneIsLeftOutWithTheReason() {
        String whole = Fixtures.newId("j");
        String half = Fixtures.newId("h");
        String n1 = Fixtures.newId("n");
        String n2 = Fixtures.newId("n");
        Instant end = T0.plus(Duration.ofMinutes(30));
        Fixtures.sendJob(Fixtures.job(whole, JobStatus.SUCCEEDED, List.of(whole + "-0"), List.of(n1), 2, T0, end, 3), end);
        Fixtures.sendJob(Fixtures.job(half, JobStatus.RUNNING, List.of(half + "-0"), List.of(n2), 1, T0, null, 2), T0);
        for (String node : List.of(n1, n2)) {
            List<MetricSamples.Sample> s = new ArrayList<>();
            for (int g = 0; g < 2; g++) {
                s.addAll(Fixtures.series("DCGM_FI_DEV_GPU_UTIL", Fixtures.gpu(node, g, null), T0.minus(Duration.ofMinutes(10)),
                        240, (i, ms) -> 50));
            }
            Fixtures.sendSamples(node, s);
        }
        String q = "metric=gpu_util&groupBy=gpu&step=60";
        await().atMost(WAIT).ignoreExceptions().until(() -> chart(whole, q).getList("series").size() == 2);
        JsonPath c = chart(whole, q);
        assertEquals(ms(T0), c.getString("from"), "a finished job's chart defaults to its run time");
        assertEquals(ms(end), c.getString("to"));
        assertEquals("placement", c.getString("series[0].attribution"));
        assertEquals(30, c.getList("series[0].points").size(), "only the minutes the job ran");
        assertEquals("placement", c.getString("attribution[0].method"));
        // the other node's samples may land a moment later (an engine shows them after its own delay)
        String hq = q + "&" + range(T0, T0.plus(Duration.ofMinutes(30)));
        await().atMost(WAIT).ignoreExceptions().until(() -> !chart(half, hq).getList("unattributed").isEmpty());
        JsonPath h = chart(half, hq);
        assertEquals(0, h.getList("series").size());
        assertEquals("the job held 1 of the node's GPUs and dcgm-exporter has no pod labels",
                h.getString("unattributed[0].reason"));
    }

    @Test
    void aNodeSharedWithAnotherJobIsTheJobsOnlyForTheMinutesItHadTheNodeAlone() {
        String first = Fixtures.newId("a");
        String second = Fixtures.newId("b");
        String node = Fixtures.newId("n");
        Instant firstEnd = T0.plus(Duration.ofMinutes(30));
        Instant secondStart = T0.plus(Duration.ofMinutes(20));
        Instant secondEnd = T0.plus(Duration.ofMinutes(40));
        Fixtures.sendJob(Fixtures.job(first, JobStatus.SUCCEEDED, List.of(first + "-0"), List.of(node), 2, T0, firstEnd, 3),
                firstEnd);
        Fixtures.sendJob(Fixtures.job(second, JobStatus.SUCCEEDED, List.of(second + "-0"), List.of(node), 2, secondStart,
                secondEnd, 3), secondEnd);
        List<MetricSamples.Sample> s = new ArrayList<>();
        for (int g = 0; g < 2; g++) {
            s.addAll(Fixtures.series("DCGM_FI_DEV_GPU_UTIL", Fixtures.gpu(node, g, null), T0, 240, (i, ms) -> 70));
        }
        Fixtures.sendSamples(node, s);
        String q = "metric=gpu_util&groupBy=gpu&step=60";
        await().atMost(WAIT).ignoreExceptions().until(() -> chart(first, q).getList("series").size() == 2
                && chart(second, q).getList("series").size() == 2);
        JsonPath c = chart(first, q);
        assertEquals(20, c.getList("series[0].points").size(), "the 20 minutes before the other job came");
        assertEquals(ms(secondStart), c.getString("attribution[0].to"));
        JsonPath other = chart(second, q);
        assertEquals(10, other.getList("series[0].points").size(), "the 10 minutes after the first job ended");
        assertEquals(ms(firstEnd), other.getString("attribution[0].from"));
    }

    @Test
    void countersBecomeRatesAcrossAResetAndChartsReadTheSameFromRollupsAfterCompaction() {
        String job = Fixtures.newId("j");
        String node = Fixtures.newId("n");
        Fixtures.sendJob(Fixtures.job(job, JobStatus.RUNNING, List.of(job + "-0"), List.of(node), 1, T0, null, 1), T0);
        List<MetricSamples.Sample> s = new ArrayList<>();
        // 1,500 bytes every 15 s = 100 B/s; the counter restarts from zero after 100 samples
        s.addAll(Fixtures.series("node_network_receive_bytes_total", Fixtures.labels("device", "eth0"), T0, 480,
                (i, ms) -> i < 100 ? 1_000_000 + 1500.0 * i : 1500.0 * (i - 99)));
        s.addAll(Fixtures.series("node_network_receive_bytes_total", Fixtures.labels("device", "lo"), T0, 480,
                (i, ms) -> 1e9 * i));
        s.addAll(Fixtures.series("DCGM_FI_DEV_GPU_UTIL", Fixtures.gpu(node, 0, job + "-0"), T0, 480, (i, ms) -> i % 2 == 0 ? 40 : 60));
        Fixtures.sendSamples(node, s);
        String q = "metric=net_rx&metric=gpu_util&step=60&" + range(T0, T0.plus(Duration.ofHours(2)));
        await().atMost(WAIT).ignoreExceptions().until(() -> chart(job, q).getList("series").size() == 2
                && Fixtures.points(chart(job, q), 0) >= 119);
        JsonPath before = chart(job, q);
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + job + "/metrics?" + q).then()
                .body("series[0].metric", equalTo("net_rx")).body("series[1].metric", equalTo("gpu_util"))
                .body("series[0].unit", equalTo("B/s"));
        for (int p = 1; p < 119; p++) {
            assertEquals(100.0, before.getDouble("series[0].points[" + p + "][1]"), 0.001, "point " + p);
            assertEquals(50.0, before.getDouble("series[1].points[" + p + "][1]"), 0.001);
        }
        compactor.compactAll(T0.plus(Duration.ofDays(1)).toEpochMilli()).await().atMost(WAIT);
        JsonPath after = chart(job, q);
        assertEquals("1m", after.getString("resolution"));
        assertEquals(before.getList("series[1].points"), after.getList("series[1].points"));
        List<Object> rates = after.getList("series[0].points");
        assertEquals(before.getList("series[0].points").subList(1, 119), rates.subList(1, 119));
    }

    @Test
    void aChartShownAgainAfterLateSamplesWereCompactedIntoItsWindowShowsTheLateValues() {
        String job = Fixtures.newId("j");
        String node = Fixtures.newId("n");
        Fixtures.sendJob(Fixtures.job(job, JobStatus.RUNNING, List.of(job + "-0"), List.of(node), 1, T0, null, 1), T0);
        Map<String, String> gpu = Fixtures.gpu(node, 0, job + "-0");
        Fixtures.sendSamples(node, Fixtures.series("DCGM_FI_DEV_GPU_UTIL", gpu, T0, 480, (i, ms) -> 40));
        String minutes = "metric=gpu_util&step=60&" + range(T0, T0.plus(Duration.ofHours(2)));
        String raw = "metric=gpu_util&step=15&" + range(T0, T0.plus(Duration.ofMinutes(10)));
        await().atMost(WAIT).ignoreExceptions().until(() -> Fixtures.points(chart(job, minutes), 0) == 120);
        compactor.compactAll(T0.plus(Duration.ofDays(1)).toEpochMilli()).await().atMost(WAIT);
        // shown once from the chunks and rollups (this replica keeps what it decoded), then corrected by late samples
        assertEquals(40.0, value(chart(job, minutes), 0, 0));
        assertEquals(40.0, value(chart(job, raw), 0, 0));
        Fixtures.sendSamples(node, Fixtures.series("DCGM_FI_DEV_GPU_UTIL", gpu, T0, 8, (i, ms) -> 100));
        await().atMost(WAIT).ignoreExceptions().until(() -> value(chart(job, raw), 0, 7) == 100.0);
        compactor.compactAll(T0.plus(Duration.ofDays(1)).toEpochMilli()).await().atMost(WAIT);
        JsonPath m = chart(job, minutes);
        assertEquals(100.0, value(m, 0, 0));
        assertEquals(100.0, value(m, 0, 1));
        assertEquals(40.0, value(m, 0, 2));
        assertEquals(120, Fixtures.points(m, 0));
        JsonPath r = chart(job, raw);
        assertEquals(100.0, value(r, 0, 7));
        assertEquals(40.0, value(r, 0, 8));
        assertEquals(40, Fixtures.points(r, 0));
    }

    @Test
    void oneMinuteRollupsKeptOneChunkPerWindowBeforeAreStillChartedAndFoldedIntoTheirDaysChunk() {
        String job = Fixtures.newId("j");
        String node = Fixtures.newId("n");
        Fixtures.sendJob(Fixtures.job(job, JobStatus.RUNNING, List.of(job + "-0"), List.of(node), 1, T0, null, 1), T0);
        Map<String, String> gpu = Fixtures.gpu(node, 0, job + "-0");
        Fixtures.sendSamples(node, Fixtures.series("DCGM_FI_DEV_GPU_UTIL", gpu, T0, 480, (i, ms) -> 40));
        String q = "metric=gpu_util&step=60&" + range(T0, T0.plus(Duration.ofHours(4)));
        await().atMost(WAIT).ignoreExceptions().until(() -> Fixtures.points(chart(job, q), 0) == 120);
        compactor.compactAll(T0.plus(Duration.ofDays(1)).toEpochMilli()).await().atMost(WAIT);
        long day = T0.toEpochMilli() / 86_400_000L * 86_400_000L;
        long id = pool.preparedQuery("SELECT id FROM series WHERE node = $1").execute(Tuple.of(node)).await()
                .atMost(WAIT).iterator().next().getLong("id");
        // as the compactor wrote them before: the window's 1-minute rollups in a chunk that starts with the window
        pool.preparedQuery("UPDATE rollup_1m SET start_ms = $3 WHERE series_id = $1 AND start_ms = $2")
                .execute(Tuple.of(id, day, T0.toEpochMilli())).await().atMost(WAIT);
        assertEquals(40.0, value(chart(job, q), 0, 119));
        Fixtures.sendSamples(node, Fixtures.series("DCGM_FI_DEV_GPU_UTIL", gpu, T0.plus(Duration.ofHours(2)), 480,
                (i, ms) -> 60));
        await().atMost(WAIT).ignoreExceptions().until(() -> Fixtures.points(chart(job, q), 0) == 240);
        compactor.compactAll(T0.plus(Duration.ofDays(1)).toEpochMilli()).await().atMost(WAIT);
        List<Long> starts = new ArrayList<>();
        pool.preparedQuery("SELECT start_ms FROM rollup_1m WHERE series_id = $1").execute(Tuple.of(id)).await()
                .atMost(WAIT).forEach(r -> starts.add(r.getLong("start_ms")));
        assertEquals(List.of(day), starts, "one chunk for the day");
        JsonPath c = chart(job, q);
        assertEquals("1m", c.getString("resolution"));
        assertEquals(240, Fixtures.points(c, 0));
        assertEquals(40.0, value(c, 0, 0));
        assertEquals(40.0, value(c, 0, 119));
        assertEquals(60.0, value(c, 0, 120));
        assertEquals(60.0, value(c, 0, 239));
    }

    /**
     * A last bucket cut by the chart's end holds the minutes up to it (the 1-minute rollups that start before the end);
     * a bucket still open shows the samples so far, and those written after it was shown (prometheus mode: both from
     * the raw samples, only what has not settled asked again, ADR 0054).
     */
    @Test
    void aLastBucketCutByTheEndOrStillOpenHoldsTheSamplesUpToTheEndAndThoseThatArriveAfter() {
        String job = Fixtures.newId("j");
        String node = Fixtures.newId("n");
        Instant now = Instant.now();
        // samples every 15 s, value i, from 20 minutes before the minute of now to 45 s before now
        Instant start = Instant.ofEpochMilli(now.toEpochMilli() / 60_000 * 60_000).minus(Duration.ofMinutes(20));
        int count = (int) ((now.toEpochMilli() - 45_000 - start.toEpochMilli()) / 15_000);
        Fixtures.sendJob(Fixtures.job(job, JobStatus.RUNNING, List.of(job + "-0"), List.of(node), 1, T0, null, 1), T0);
        Map<String, String> gpu = Fixtures.gpu(node, 0, job + "-0");
        Fixtures.sendSamples(node, Fixtures.series("DCGM_FI_DEV_GPU_UTIL", gpu, T0, 80, (i, ms) -> i));
        Fixtures.sendSamples(node, Fixtures.series("DCGM_FI_DEV_GPU_UTIL", gpu, start, count, (i, ms) -> i));
        // 5-minute buckets, the last one [T0 + 10 min, T0 + 15 min) cut at 12.5 min: the samples of minutes 10 to 12
        String cut = "metric=gpu_util&step=300&" + range(T0, T0.plus(Duration.ofSeconds(750)));
        await().atMost(WAIT).ignoreExceptions().until(() -> Fixtures.points(chart(job, cut), 0) == 3);
        assertEquals((40 + 51) / 2.0, value(chart(job, cut), 0, 2));
        // 1-minute buckets to now: the last ones after the settled line (2 minutes), the newest with 1 to 4 samples
        String open = "metric=gpu_util&step=60&from=" + start;
        int last = count - 1;
        long lastMinute = (start.toEpochMilli() + last * 15_000L) / 60_000 * 60_000;
        int first = (int) ((lastMinute - start.toEpochMilli()) / 15_000);
        await().atMost(WAIT).ignoreExceptions().until(() -> Fixtures.points(chart(job, open), 0) == first / 4 + 1
                && value(chart(job, open), 0, first / 4) == (first + last) / 2.0);
        // one more sample 15 s after the last: in the newest bucket, or the first of a new one
        Fixtures.sendSamples(node, Fixtures.series("DCGM_FI_DEV_GPU_UTIL", gpu,
                start.plusMillis((last + 1) * 15_000L), 1, (i, ms) -> 1000));
        int points = first / 4 + 1 + (last - first == 3 ? 1 : 0);
        double expected = last - first == 3 ? 1000.0
                : ((first + last) / 2.0 * (last - first + 1) + 1000) / (last - first + 2);
        await().atMost(WAIT).ignoreExceptions().until(() -> Fixtures.points(chart(job, open), 0) == points
                && Math.abs(value(chart(job, open), 0, points - 1) - expected) < 0.001);
        assertEquals(first / 4 + 1, Fixtures.points(chart(job, "metric=gpu_util&step=60&" + range(start,
                Instant.ofEpochMilli(lastMinute + 60_000))), 0), "the same buckets to the end of the last one");
    }

    /** How the API writes a time: RFC 3339 in UTC to the millisecond. */
    static String ms(Instant t) {
        return java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
                .withZone(java.time.ZoneOffset.UTC).format(t);
    }
}
