package io.jobmon.metrics.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.contracts.events.MetricSamples;
import io.jobmon.metrics.Fixtures;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** When a GPU holding starts and ends, from records of one node in order. */
class GpuHoldingsTest {

    static final long GAP = 300_000;

    /** dcgm-exporter's labels of GPU {@code g} as scraped from one exporter (job and instance set by the scraper). */
    static Map<String, String> gpu(int g, String pod) {
        Map<String, String> l = Fixtures.gpu("n1", g, pod);
        l.put("job", "dcgm-exporter");
        l.put("instance", "n1:9400");
        return l;
    }

    static MetricSamples.Series series(String name, Map<String, String> labels, long... times) {
        double[] v = new double[times.length];
        java.util.Arrays.fill(v, 1);
        return new MetricSamples.Series(name, labels, times, v);
    }

    static GpuHoldings.Seen record(MetricSamples.Series... series) {
        long oldest = Long.MAX_VALUE;
        for (MetricSamples.Series s : series) {
            for (long t : s.timestampsMs()) {
                oldest = Math.min(oldest, t);
            }
        }
        GpuHoldings.Seen seen = GpuHoldings.seen(new SampleBatch(0, 0, 0, "n1", List.of(series), 0), oldest);
        return seen != null ? seen : new GpuHoldings.Seen("n1", oldest, Map.of(), List.of());
    }

    static String show(GpuHoldings.Holding h) {
        return h.gpu + " " + h.pod + " " + h.fromMs + ".." + h.toMs;
    }

    @Test
    void aHoldingStartsWithThePodsFirstLabelledSampleAndEndsAtItsLastWhenAnotherPodTakesTheGpu() {
        var c = GpuHoldings.apply(List.of(), List.of(
                record(series("DCGM_FI_DEV_GPU_UTIL", gpu(0, "a"), 15_000, 30_000),
                        series("DCGM_FI_DEV_GPU_UTIL", gpu(1, "b"), 15_000)),
                record(series("DCGM_FI_DEV_GPU_UTIL", gpu(0, "a"), 45_000)),
                record(series("DCGM_FI_DEV_GPU_UTIL", gpu(0, "c"), 60_000))), GAP);
        assertEquals(List.of("0 a 15000..45000", "1 b 15000..null", "0 c 60000..null"),
                c.publish().stream().map(GpuHoldingsTest::show).toList());
        GpuHoldings.Holding a = c.publish().get(0);
        assertEquals("GPU-n1-0", a.uuid);
        assertEquals("00000000:00:00.0", a.pciBusId);
        assertEquals("nvidia0", a.device);
        assertEquals("NVIDIA A100-SXM4-80GB", a.model);
        assertEquals("team-nlp", a.namespace);
        assertEquals("0", HoldingRepository.record(a).gpu());
        assertEquals("n1/GPU-n1-0", HoldingRepository.record(a).key());
    }

    @Test
    void theHoldersOwnSeriesWithoutThePodEndsItButAnUnlabelledXidCountOrASecondExporterDoesNot() {
        Map<String, String> secondExporter = gpu(0, null);
        secondExporter.put("instance", "n1:9401");
        var c = GpuHoldings.apply(List.of(), List.of(
                record(series("DCGM_FI_DEV_GPU_UTIL", gpu(0, "a"), 15_000)),
                record(series("DCGM_EXP_XID_ERRORS_COUNT", gpu(0, null), 30_000),
                        series("DCGM_FI_DEV_GPU_UTIL", secondExporter, 40_000),
                        series("DCGM_FI_DEV_GPU_UTIL", gpu(0, "a"), 30_000))),
                GAP);
        assertEquals(List.of("0 a 15000..null"), c.publish().stream().map(GpuHoldingsTest::show).toList());
        GpuHoldings.Holding open = c.write().get(0);
        var ended = GpuHoldings.apply(List.of(stored(open)), List.of(
                record(series("DCGM_FI_DEV_GPU_UTIL", gpu(0, null), 45_000))), GAP);
        assertEquals(List.of("0 a 15000..30000"), ended.publish().stream().map(GpuHoldingsTest::show).toList());
    }

    @Test
    void aHoldingWithoutALabelledSampleForTheGapEndsByTheNodesOtherSamplesAndIsOnlyRefreshedMeanwhile() {
        GpuHoldings.Holding open = stored(GpuHoldings.apply(List.of(), List.of(
                record(series("DCGM_FI_DEV_GPU_UTIL", gpu(0, "a"), 0))), GAP).write().get(0));
        var within = GpuHoldings.apply(List.of(stored(open)), List.of(
                record(series("DCGM_FI_DEV_GPU_UTIL", gpu(0, "a"), 60_000)),
                record(series("node_cpu_seconds_total", Map.of("cpu", "0"), GAP))), GAP);
        assertTrue(within.publish().isEmpty(), "nothing to publish while the same pod holds the GPU");
        assertEquals(List.of(), within.write(), "a quarter of the gap not yet passed since the stored last sample");
        var refreshed = GpuHoldings.apply(List.of(stored(open)), List.of(
                record(series("DCGM_FI_DEV_GPU_UTIL", gpu(0, "a"), GAP / 4))), GAP);
        assertTrue(refreshed.publish().isEmpty());
        assertEquals(GAP / 4, refreshed.write().get(0).lastMs);
        assertNull(refreshed.write().get(0).toMs);
        var gone = GpuHoldings.apply(List.of(stored(open)), List.of(
                record(series("node_cpu_seconds_total", Map.of("cpu", "0"), GAP + 1))), GAP);
        assertEquals(List.of("0 a 0..0"), gone.publish().stream().map(GpuHoldingsTest::show).toList());
    }

    @Test
    void anotherPodsSampleWithinTheHoldingLeavesTheHolderAndMigInstancesAreHeldApart() {
        Map<String, String> mig1 = gpu(0, "m1");
        mig1.put("GPU_I_ID", "1");
        Map<String, String> mig2 = gpu(0, "m2");
        mig2.put("GPU_I_ID", "2");
        var c = GpuHoldings.apply(List.of(), List.of(
                record(series("DCGM_FI_DEV_GPU_UTIL", gpu(1, "a"), 15_000, 45_000),
                        series("DCGM_FI_DEV_GPU_UTIL", gpu(1, "late"), 30_000),
                        series("DCGM_FI_PROF_SM_ACTIVE", mig1, 15_000), series("DCGM_FI_PROF_SM_ACTIVE", mig2, 15_000))),
                GAP);
        List<String> shown = new ArrayList<>(c.publish().stream().map(GpuHoldingsTest::show).toList());
        assertEquals(List.of("1 a 15000..null", "0/1 m1 15000..null", "0/2 m2 15000..null"), shown);
    }

    @Test
    void aBackfillCutIntoRecordsOfAFewGpusEachKeepsEveryHoldingWhileItsSamplesSpanMoreThanTheGap() {
        // a remote-write request of 15 minutes of scrapes: the node's series cut into a record per GPU
        long[] quarter = new long[60];
        long[] next = new long[60];
        for (int i = 0; i < 60; i++) {
            quarter[i] = i * 15_000L;
            next[i] = 900_000L + i * 15_000L;
        }
        var c = GpuHoldings.apply(List.of(), List.of(
                record(series("DCGM_FI_DEV_GPU_UTIL", gpu(0, "a"), quarter)),
                record(series("DCGM_FI_DEV_GPU_UTIL", gpu(1, "a"), quarter)),
                record(series("DCGM_FI_DEV_GPU_UTIL", gpu(0, "a"), next)),
                record(series("DCGM_FI_DEV_GPU_UTIL", gpu(1, "a"), next))), GAP);
        assertEquals(List.of("0 a 0..null", "1 a 0..null"), c.publish().stream().map(GpuHoldingsTest::show).toList());
        // the node's records going on past the gap without the GPU's: it ends at its last sample
        var gone = GpuHoldings.apply(c.write().stream().map(GpuHoldingsTest::stored).toList(), List.of(
                record(series("DCGM_FI_DEV_GPU_UTIL", gpu(0, "a"), 1_800_000L + GAP))), GAP);
        assertEquals(List.of("1 a 0..1785000"), gone.publish().stream().map(GpuHoldingsTest::show).toList());
    }

    /** The holding as the next batch reads it from the table. */
    static GpuHoldings.Holding stored(GpuHoldings.Holding h) {
        return new GpuHoldings.Holding(h.node, h.gpu, h.fromMs, h.toMs, h.lastMs, h.lastMs, h.index, h.uuid, h.pciBusId,
                h.device, h.model, h.cluster, h.namespace, h.pod, h.refMetric, h.refLabels);
    }
}
