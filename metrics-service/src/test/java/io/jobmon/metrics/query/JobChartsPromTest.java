package io.jobmon.metrics.query;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jobmon.contracts.events.JobStatus;
import io.jobmon.metrics.Fixtures;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.MetricsEngineTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import io.restassured.path.json.JsonPath;
import io.vertx.mutiny.sqlclient.Tuple;
import io.jobmon.metrics.store.SettledReads;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

/**
 * {@link JobChartsTest}'s charts with {@code jobmon.metrics.storage=prometheus} against a real VictoriaMetrics: the
 * same API answers, the samples in the engine (ADR 0036).
 */
@QuarkusTest
// a bean of its own type only: the builtin class it extends stays the one bean of that type
@jakarta.enterprise.inject.Typed(JobChartsPromTest.class)
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
@WithTestResource(MetricsEngineTestResource.class)
class JobChartsPromTest extends JobChartsTest {

    /**
     * Replaces the builtin store's late-sample test: an engine keeps the first value written at a timestamp (Prometheus
     * refuses another, ADR 0036), so late samples here fill a gap, in the raw chart and in the minute buckets.
     */
    @Override
    @Test
    void aChartShownAgainAfterLateSamplesWereCompactedIntoItsWindowShowsTheLateValues() {
        String job = Fixtures.newId("j");
        String node = Fixtures.newId("n");
        Map<String, String> gpu = gapAtStart(job, node, 472);
        String minutes = "metric=gpu_util&step=60&" + range(T0, T0.plus(Duration.ofHours(2)));
        String raw = "metric=gpu_util&step=15&" + range(T0, T0.plus(Duration.ofMinutes(10)));
        await().atMost(WAIT).ignoreExceptions().until(() -> Fixtures.points(chart(job, minutes), 0) == 118);
        assertEquals(32, Fixtures.points(chart(job, raw), 0));
        Fixtures.sendSamples(node, Fixtures.series("DCGM_FI_DEV_GPU_UTIL", gpu, T0, 8, (i, ms) -> 100));
        await().atMost(WAIT).ignoreExceptions().until(() -> Fixtures.points(chart(job, raw), 0) == 40);
        JsonPath m = chart(job, minutes);
        assertEquals(120, Fixtures.points(m, 0));
        assertEquals(100.0, value(m, 0, 0));
        assertEquals(100.0, value(m, 0, 1));
        assertEquals(40.0, value(m, 0, 2));
        JsonPath r = chart(job, raw);
        assertEquals(100.0, value(r, 0, 7));
        assertEquals(40.0, value(r, 0, 8));
    }

    /**
     * A range older than {@code prometheus.settled-after} is answered from the replica's memory once read (ADR 0044):
     * a sample written into it behind jobmon's back is not charted until the notice a late forwarded sample sends.
     */
    @Test
    void aSettledRangeIsAnsweredFromMemoryUntilALateNoticeOfItsNode() throws Exception {
        String job = Fixtures.newId("j");
        String node = Fixtures.newId("n");
        Map<String, String> gpu = gapAtStart(job, node, 32);
        String raw = "metric=gpu_util&step=15&" + range(T0, T0.plus(Duration.ofMinutes(10)));
        await().atMost(WAIT).ignoreExceptions().until(() -> Fixtures.points(chart(job, raw), 0) == 32);
        // a read is kept once the replica has read for longer than an engine takes to show a written sample (the
        // forwarder's own late notice of these samples heard before)
        Thread.sleep(1000);
        chart(job, raw);
        Thread.sleep(SettledReads.VISIBLE_MS + 500);
        assertEquals(32, Fixtures.points(chart(job, raw), 0));
        // the first minute's first sample straight into the engine (VictoriaMetrics' import): no forwarding, no notice
        StringBuilder line = new StringBuilder("DCGM_FI_DEV_GPU_UTIL{node=\"" + node + "\"");
        gpu.forEach((k, v) -> line.append(',').append(k).append("=\"").append(v).append('"'));
        line.append("} 100 ").append(T0.toEpochMilli()).append('\n');
        String engine = ConfigProvider.getConfig().getValue("jobmon.metrics.prometheus.url", String.class);
        HttpClient http = HttpClient.newHttpClient();
        assertEquals(204, http.send(HttpRequest.newBuilder(URI.create(engine + "/api/v1/import/prometheus"))
                .POST(HttpRequest.BodyPublishers.ofString(line.toString())).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode());
        // the engine's own count over (T0 - 1 min, T0 + 10 min]: 33 once it shows the imported sample
        String count = engine + "/api/v1/query?time=" + T0.plus(Duration.ofMinutes(10)).getEpochSecond() + "&query="
                + URLEncoder.encode("count_over_time(DCGM_FI_DEV_GPU_UTIL{node=\"" + node + "\"}[11m])",
                        StandardCharsets.UTF_8);
        await().atMost(WAIT).until(() -> http.send(HttpRequest.newBuilder(URI.create(count)).build(),
                HttpResponse.BodyHandlers.ofString()).body().contains("\"33\""));
        assertEquals(32, Fixtures.points(chart(job, raw), 0), "the held answer, not the engine's");
        // what the samples consumer sends when it forwards a sample older than the settled line
        pool.query("SELECT pg_notify('metrics_changes', '" + SettledReads.lateToken(node) + "')").execute()
                .await().atMost(WAIT);
        await().atMost(WAIT).until(() -> Fixtures.points(chart(job, raw), 0) == 33);
        assertEquals(100.0, value(chart(job, raw), 0, 0));
    }

    /**
     * A running job with one GPU on {@code node}, utilisation 40 in {@code samples} samples from T0 + 2 min (the first
     * two minutes missing): its GPU's labels.
     */
    static Map<String, String> gapAtStart(String job, String node, int samples) {
        Fixtures.sendJob(Fixtures.job(job, JobStatus.RUNNING, List.of(job + "-0"), List.of(node), 1, T0, null, 1), T0);
        Map<String, String> gpu = Fixtures.gpu(node, 0, job + "-0");
        Fixtures.sendSamples(node, Fixtures.series("DCGM_FI_DEV_GPU_UTIL", gpu, T0.plus(Duration.ofMinutes(2)), samples,
                (i, ms) -> 40));
        return gpu;
    }

    /** Replaces the builtin store's chunk layout test: nothing is kept by jobmon, minute charts are the engine's. */
    @Override
    @Test
    void oneMinuteRollupsKeptOneChunkPerWindowBeforeAreStillChartedAndFoldedIntoTheirDaysChunk() {
        String job = Fixtures.newId("j");
        String node = Fixtures.newId("n");
        Fixtures.sendJob(Fixtures.job(job, JobStatus.RUNNING, List.of(job + "-0"), List.of(node), 1, T0, null, 1), T0);
        Map<String, String> gpu = Fixtures.gpu(node, 0, job + "-0");
        Fixtures.sendSamples(node, Fixtures.series("DCGM_FI_DEV_GPU_UTIL", gpu, T0, 480, (i, ms) -> 40));
        Fixtures.sendSamples(node, Fixtures.series("DCGM_FI_DEV_GPU_UTIL", gpu, T0.plus(Duration.ofHours(2)), 480,
                (i, ms) -> 60 + (i % 4)));
        String q = "metric=gpu_util&step=60&" + range(T0, T0.plus(Duration.ofHours(4)));
        await().atMost(WAIT).ignoreExceptions().until(() -> Fixtures.points(chart(job, q), 0) == 240);
        JsonPath c = chart(job, q);
        assertEquals("1m", c.getString("resolution"));
        assertEquals(40.0, value(c, 0, 0));
        assertEquals(40.0, value(c, 0, 119));
        assertEquals(61.5, value(c, 0, 120), "the minute's average: 60, 61, 62, 63");
        assertEquals(63.0, value(chart(job, q + "&aggregation=max"), 0, 120), "the minute's peak");
        assertEquals(60.0, value(chart(job, q + "&aggregation=min"), 0, 120), "the minute's low");
        for (String table : new String[] {"series", "head_block"}) {
            assertEquals(0L, pool.preparedQuery("SELECT count(*) AS n FROM " + table + " WHERE node = $1")
                    .execute(Tuple.of(node)).await().atMost(WAIT).iterator().next().getLong("n"), table);
        }
    }
}
