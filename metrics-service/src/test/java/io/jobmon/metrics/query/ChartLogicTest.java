package io.jobmon.metrics.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.contracts.problem.ApiException;
import io.jobmon.metrics.jobs.Placements;
import io.jobmon.metrics.store.Resolution;
import io.jobmon.metrics.store.SeriesRef;
import io.jobmon.metrics.store.codec.Points;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Resolution choice, buckets and attribution, without a database. */
class ChartLogicTest {

    static final long H = 3_600_000;
    static final long D = 24 * H;
    static final long NOW = 100 * D;

    static ResolutionChoice auto(long range, long now) {
        return ResolutionChoice.choose(now - range, now, 0, 1000, 15_000, now - 3 * D, now - 30 * D);
    }

    @Test
    void automaticResolutionIsTheFinestThatStaysWithinAThousandPointsFromWhatIsStillKept() {
        assertEquals(new ResolutionChoice(Resolution.RAW, 15_000), auto(H, NOW), "an hour: every sample");
        assertEquals(new ResolutionChoice(Resolution.RAW, 15_000), auto(4 * H, NOW), "960 points");
        assertEquals(new ResolutionChoice(Resolution.MINUTE, 120_000), auto(D, NOW));
        assertEquals(new ResolutionChoice(Resolution.MINUTE, 300_000), auto(3 * D, NOW), "seed 004's three days");
        assertEquals(new ResolutionChoice(Resolution.MINUTE, 900_000), auto(7 * D, NOW));
        assertEquals(new ResolutionChoice(Resolution.HOUR, 3_600_000), auto(30 * D, NOW));
        assertEquals(new ResolutionChoice(Resolution.HOUR, 3 * H), auto(90 * D, NOW));
        // an hour ten days ago: raw is gone, minutes are kept
        assertEquals(new ResolutionChoice(Resolution.MINUTE, 60_000),
                ResolutionChoice.choose(NOW - 10 * D, NOW - 10 * D + H, 0, 1000, 15_000, NOW - 3 * D, NOW - 30 * D));
        assertEquals(new ResolutionChoice(Resolution.RAW, 30_000),
                ResolutionChoice.choose(NOW - H, NOW, 30_000, 1000, 15_000, NOW - 3 * D, NOW - 30 * D));
        assertEquals(100, ResolutionChoice.maxPoints("low"));
        assertThrows(ApiException.class, () -> ResolutionChoice.maxPoints("ultra"));
        assertThrows(ApiException.class, () -> ResolutionChoice.choose(NOW - 30 * D, NOW, 15_000, 1000, 15_000, 0, 0));
    }

    @Test
    void counterBucketsAreIncreasesPerSecondThroughResetsAndGaugeBucketsAverages() {
        Points p = new Points(8);
        double[] v = {100, 160, 220, 40, 100};
        for (int i = 0; i < v.length; i++) {
            p.add(i * 15_000L, v[i]);
        }
        double[] rate = Buckets.ofRaw(p, 0, 30_000, 3, Catalogue.Transform.RATE, Aggregation.AVG);
        assertEquals(2.0, rate[0], 1e-9, "60 over the first 30 s bucket (one increase seen)");
        assertEquals((60 + 40) / 30.0, rate[1], 1e-9, "a reset to 40 counts 40");
        double[] avg = Buckets.ofRaw(p, 0, 30_000, 3, Catalogue.Transform.VALUE, Aggregation.AVG);
        assertEquals(130, avg[0]);
        assertEquals(100, Buckets.ofRaw(p, 0, 30_000, 3, Catalogue.Transform.VALUE, Aggregation.MAX)[2]);
    }

    static SeriesRef gpu(long id, String node, String gpu, String pod) {
        return new SeriesRef(id, "DCGM_FI_DEV_GPU_UTIL", node, false, gpu, pod, pod == null ? null : "ns", "c1", Map.of());
    }

    @Test
    void attributionTakesPodLabelsElseAnExclusiveWholeNodeAndSaysWhyNot() {
        var mine = List.of(new Placements.Interval("n1", 0, 100L, List.of("p0"), 2),
                new Placements.Interval("n2", 0, 100L, List.of("p1"), 1), new Placements.Interval("n3", 0, 100L, List.of(), 2));
        var others = List.of(new Placements.Interval("n1", 50, 80L, List.of("x"), 2),
                new Placements.Interval("n3", 0, null, List.of("y"), 2));
        var candidates = List.of(gpu(1, "n0", "0", "p0"), gpu(2, "n0", "1", "zz"), gpu(3, "n1", "0", null),
                gpu(4, "n1", "1", null), gpu(5, "n2", "0", null), gpu(6, "n2", "1", null), gpu(7, "n3", "0", null));
        var r = Attribution.attribute(List.of("p0", "p1"), "ns", mine, others, candidates, true, 0, 100, List.of());
        var byId = r.series().stream().collect(java.util.stream.Collectors.toMap(a -> a.series().id(), a -> a));
        assertEquals(Attribution.LABELS, byId.get(1L).method());
        assertTrue(!byId.containsKey(2L), "another pod's GPU");
        assertEquals(Attribution.PLACEMENT, byId.get(3L).method());
        assertEquals("p0", byId.get(3L).pod());
        assertEquals(2, byId.get(3L).valid().size(), "not while the other job shared the node");
        assertEquals(0, byId.get(3L).valid().get(0)[0]);
        assertEquals(50, byId.get(3L).valid().get(0)[1]);
        assertTrue(!byId.containsKey(5L) && !byId.containsKey(7L));
        assertEquals(3, r.unattributed().size(), "one entry per GPU left out");
        assertTrue(r.unattributed().get(0).reason().contains("1 of the node's GPUs"));
        assertEquals("n3", r.unattributed().get(2).node());
        assertTrue(r.unattributed().get(2).reason().contains("other jobs"));
    }

    @Test
    void aStoredSummaryReadsBackAsWritten() throws Exception {
        Summary s = new Summary("j", true, java.time.Instant.EPOCH, java.time.Instant.EPOCH, java.time.Instant.EPOCH, 2,
                41.0, 80.0, 100.0, 2, 1, List.of(new Summary.Pod("p", 2, 41.0, 80.0, 100.0, 2, 1)));
        String json = io.jobmon.contracts.events.CloudEvents.toJson(s);
        assertTrue(json.contains("\"final\":true"), json);
        assertEquals(s, io.jobmon.contracts.events.CloudEvents.MAPPER.readValue(json, Summary.class));
    }

    @Test
    void aSummaryOverGpusOfWhichSomeHaveNoMemorySeriesTakesThePeaksOfThoseThatHave() {
        SummaryService.Gpu withMemory = new SummaryService.Gpu();
        withMemory.utilSum = 80 * 60;
        withMemory.minutes = 60;
        withMemory.peakUtil = 95.0;
        withMemory.peakMem = 40_000.0;
        SummaryService.Gpu utilOnly = new SummaryService.Gpu();
        utilOnly.utilSum = 20 * 60;
        utilOnly.minutes = 60;
        utilOnly.peakUtil = 30.0;
        for (List<SummaryService.Gpu> order : List.of(List.of(utilOnly, withMemory), List.of(withMemory, utilOnly))) {
            Summary.Pod all = SummaryService.figures(null, order, 2, 1.0);
            assertEquals(95.0, all.peakGpuUtil());
            assertEquals(40_000.0, all.peakGpuMemMiB());
            assertEquals(50.0, all.avgGpuUtil());
        }
        assertEquals(null, SummaryService.figures("p", List.of(utilOnly), 0, 1.0).peakGpuMemMiB());
    }
}
