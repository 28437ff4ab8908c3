package io.jobmon.metrics.query;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.contracts.events.CloudEvent;
import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.GpuHolding;
import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.events.MetricSamples;
import io.jobmon.contracts.events.Topics;
import io.jobmon.metrics.Fixtures;
import io.jobmon.metrics.ingest.IngestService;
import io.jobmon.metrics.ingest.SampleBatch;
import io.jobmon.metrics.ingest.SeriesBuilder;
import io.jobmon.testsupport.KafkaTestClient;
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
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * Two jobs on one node, dcgm-exporter labelling their util series with their pods, and series of job A's GPU that it
 * did not label (an Xid, remapped rows): they are A's by GPU identity while A's pod held the GPU, never B's; the
 * holdings are listed per job and published on {@code jobmon.gpu.holdings}; a batch stored again changes nothing.
 * Real Kafka and PostgreSQL.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
class GpuAttributionTest {

    static final Instant T0 = Instant.parse("2025-07-01T08:00:00Z");
    static final Duration WAIT = Duration.ofSeconds(30);
    /** diagnosis-service's default metrics (jobmon.diagnosis.evidence.default-metrics). */
    static final String DIAGNOSIS_METRICS = "gpu_util,gpu_mem_used,gpu_temp,gpu_mem_temp,gpu_power,sm_active,"
            + "tensor_active,sm_clock,mem_clock,throttle_reasons,xid,ecc_sbe,ecc_dbe,ecc_dbe_agg,retired_pages_dbe,"
            + "retired_pages_pending,remapped_rows_uncorrectable,remapped_rows_correctable,row_remap_failure,"
            + "pcie_replays,nvlink_crc_flit_errors,nvlink_crc_data_errors,nvlink_replay_errors,nvlink_recovery_errors";

    @Inject
    IngestService ingest;

    @Inject
    Pool pool;

    static JsonPath get(String path, String token) {
        return given().auth().oauth2(token).get(path).then().statusCode(200).extract().jsonPath();
    }

    static String range() {
        return "from=" + T0 + "&to=" + T0.plus(Duration.ofMinutes(10));
    }

    @Test
    void anUnlabelledXidOfJobAsGpuIsAsByGpuIdentityNeverBsAndTheHoldingIsListedAndPublished() {
        String a = Fixtures.newId("ja");
        String b = Fixtures.newId("jb");
        String node = Fixtures.newId("n");
        Fixtures.sendJob(Fixtures.job(a, JobStatus.RUNNING, List.of(a + "-0"), List.of(node), 1, T0, null, 1), T0);
        Fixtures.sendJob(Fixtures.job(b, JobStatus.RUNNING, List.of(b + "-0"), List.of(node), 1, T0, null, 1), T0);
        List<MetricSamples.Sample> samples = new ArrayList<>();
        samples.addAll(Fixtures.series("DCGM_FI_DEV_GPU_UTIL", Fixtures.gpu(node, 0, a + "-0"), T0, 20, (i, ms) -> 90));
        samples.addAll(Fixtures.series("DCGM_FI_DEV_GPU_UTIL", Fixtures.gpu(node, 1, b + "-0"), T0, 20, (i, ms) -> 40));
        // the same GPU 0 (index, UUID, PCI bus id), without pod labels: Xid 79 from the 5th sample, a remapped row
        samples.addAll(Fixtures.series("DCGM_FI_DEV_XID_ERRORS", Fixtures.gpu(node, 0, null), T0, 20,
                (i, ms) -> i >= 4 ? 79 : 0));
        samples.addAll(Fixtures.series("DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS", Fixtures.gpu(node, 0, null), T0, 20,
                (i, ms) -> i >= 4 ? 1 : 0));
        Fixtures.sendSamples(node, samples);

        String xid = "/api/v1/jobs/%s/metrics?metric=xid&groupBy=gpu&" + range();
        await().atMost(WAIT).ignoreExceptions().until(() -> get(xid.formatted(a), Tokens.alice()).getList("series").size() == 1);
        JsonPath ax = get(xid.formatted(a), Tokens.alice());
        assertEquals("gpu", ax.getString("series[0].attribution"));
        assertEquals("79", ax.getString("series[0].group.code"));
        assertEquals("0", ax.getString("series[0].group.gpu"));
        assertEquals("GPU-" + node + "-0", ax.getString("series[0].group.uuid"));
        assertEquals(a + "-0", ax.getString("series[0].group.pod"));
        assertEquals(1.0, ax.getDouble("series[0].points[0][1]"), "one event: the change to 79");
        assertTrue(ax.getList("attribution.method").contains("gpu"));
        JsonPath bx = get(xid.formatted(b), Tokens.alice());
        assertEquals(0, bx.getList("series").size(), "B shares the node, but never held GPU 0");

        String rows = "/api/v1/jobs/%s/metrics?metric=gpu_util&metric=remapped_rows_uncorrectable&groupBy=gpu&" + range();
        JsonPath ar = get(rows.formatted(a), Tokens.alice());
        List<Map<String, Object>> lines = ar.getList("series");
        assertEquals(List.of("gpu_util", "remapped_rows_uncorrectable"), lines.stream().map(l -> l.get("metric")).toList());
        assertEquals("labels", lines.get(0).get("attribution"));
        assertEquals("gpu", lines.get(1).get("attribution"));
        assertEquals(a + "-0", ar.getString("series[1].group.pod"));
        assertEquals("00000000:00:00.0", ar.getString("series[1].group.pciBusId"));
        JsonPath br = get(rows.formatted(b), Tokens.alice());
        assertEquals(List.of("gpu_util"), br.getList("series.metric"), "only B's own labelled GPU");
        assertEquals("1", br.getString("series[0].group.gpu"));

        // the answer diagnosis-service reads for its evidence (its default metrics, per GPU), kept for its tests
        String diagnosis = given().auth().oauth2(Tokens.service()).get("/api/v1/jobs/" + a + "/metrics?metric="
                + DIAGNOSIS_METRICS + "&groupBy=gpu&" + range()).then().statusCode(200).extract().asString();
        assertTrue(diagnosis.contains("\"attribution\":\"gpu\""), diagnosis);
        try {
            java.nio.file.Files.createDirectories(java.nio.file.Path.of("target", "recorded"));
            java.nio.file.Files.writeString(java.nio.file.Path.of("target", "recorded", "metrics-xid-by-gpu.json"),
                    diagnosis.replace(a, "{job}").replace(node, "{node}"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }

        JsonPath gpus = get("/api/v1/jobs/" + a + "/gpus", Tokens.alice());
        assertEquals(1, gpus.getList("gpus").size());
        assertEquals(node, gpus.getString("gpus[0].node"));
        assertEquals("0", gpus.getString("gpus[0].gpu"));
        assertEquals("GPU-" + node + "-0", gpus.getString("gpus[0].uuid"));
        assertEquals("00000000:00:00.0", gpus.getString("gpus[0].pciBusId"));
        assertEquals("NVIDIA A100-SXM4-80GB", gpus.getString("gpus[0].modelName"));
        assertEquals(a + "-0", gpus.getString("gpus[0].pod"));
        assertEquals(T0.toString(), Instant.parse(gpus.getString("gpus[0].from")).toString());
        assertNull(gpus.getString("gpus[0].to"), "still held");
        assertEquals(Map.of("modelName", "NVIDIA A100-SXM4-80GB", "count", 1), gpus.getMap("models[0]"));
        assertEquals("1", get("/api/v1/jobs/" + b + "/gpus", Tokens.alice()).getString("gpus[0].gpu"));
        given().auth().oauth2(Tokens.bob()).get("/api/v1/jobs/" + a + "/gpus").then().statusCode(404);
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + Fixtures.newId("none") + "/gpus").then().statusCode(404);

        List<ConsumerRecord<String, String>> published = KafkaTestClient.await(Topics.GPU_HOLDINGS,
                r -> r.key().equals(node + "/GPU-" + node + "-0"), 1, WAIT);
        assertEquals(1, published.size());
        CloudEvent<GpuHolding> e = CloudEvents.decode(published.get(0).value(), GpuHolding.class);
        assertEquals(GpuHolding.TYPE, e.type());
        assertEquals(a + "-0", e.data().pod());
        assertEquals("team-nlp", e.data().namespace());
        assertEquals("0", e.data().gpu());
        assertEquals("00000000:00:00.0", e.data().pciBusId());
        assertEquals(T0, e.data().from());
        assertNull(e.data().to());
    }

    @Test
    void aBatchStoredAgainAfterACrashAddsNoHoldingAndPublishesNothingTwice() {
        String node = Fixtures.newId("n");
        String topic = "test.replay." + node;
        List<MetricSamples.Sample> samples = new ArrayList<>();
        samples.addAll(Fixtures.series("DCGM_FI_DEV_GPU_UTIL", Fixtures.gpu(node, 3, "p-" + node), T0, 8, (i, ms) -> 50));
        // another pod takes the GPU: the first holding ends at its last sample, a second starts
        samples.addAll(Fixtures.series("DCGM_FI_DEV_GPU_UTIL", Fixtures.gpu(node, 3, "q-" + node),
                T0.plus(Duration.ofMinutes(3)), 8, (i, ms) -> 60));
        List<MetricSamples.Series> series = SeriesBuilder.of(samples);
        List<SampleBatch> records = List.of(new SampleBatch(0, 0, T0.toEpochMilli(), node, series.subList(0, 1), 8),
                new SampleBatch(0, 1, T0.toEpochMilli(), node, series.subList(1, 2), 8));
        IngestService.Result first = ingest.apply(topic, records, Map.of(0, 1L)).await().atMost(WAIT);
        assertEquals(0, first.replayed());
        IngestService.Result again = ingest.apply(topic, records, Map.of(0, 1L)).await().atMost(WAIT);
        assertEquals(2, again.replayed());
        List<String> rows = new ArrayList<>();
        pool.preparedQuery("SELECT pod, from_ms, to_ms FROM gpu_holding WHERE node = $1 ORDER BY from_ms")
                .execute(Tuple.of(node)).await().atMost(WAIT)
                .forEach(r -> rows.add(r.getString("pod") + " " + r.getLong("from_ms") + " " + r.getLong("to_ms")));
        long t0 = T0.toEpochMilli();
        assertEquals(List.of("p-" + node + " " + t0 + " " + (t0 + 7 * 15_000),
                "q-" + node + " " + (t0 + 180_000) + " null"), rows);
        List<ConsumerRecord<String, String>> published = KafkaTestClient.await(Topics.GPU_HOLDINGS,
                r -> r.key().equals(node + "/GPU-" + node + "-3"), 3, Duration.ofSeconds(10));
        assertEquals(2, published.size(), "the ended holding and the new one, once each");
        assertEquals(t0 + 7 * 15_000, CloudEvents.decode(published.get(0).value(), GpuHolding.class).data().to()
                .toEpochMilli());
        assertEquals("q-" + node, CloudEvents.decode(published.get(1).value(), GpuHolding.class).data().pod());
    }
}
