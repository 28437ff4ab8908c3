package io.jobmon.metrics.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The PromQL jobmon builds for an engine and the ids of the engine's label sets (ADR 0036). */
class PromSelectorsTest {

    @Test
    void valuesAreMatchedLiterallyAndQuotedAsPromqlStrings() {
        assertEquals("\"a\\\\.b|c\\\\+d|x\\\"y\"", PromSelectors.anyOf(List.of("c+d", "a.b", "x\"y")));
        assertEquals("{__name__=\"m\",pod=\"p-0\"}", PromSelectors.selector(List.of("m"), "pod", List.of("p-0")));
        assertEquals("{__name__=~\"a|b\",node=~\"n1|n2\"}",
                PromSelectors.selector(List.of("b", "a"), "node", List.of("n2", "n1")));
    }

    @Test
    void anIdIsTheLabelSetsWhateverTheOrderAndTheNameLabel() {
        Map<String, String> a = new LinkedHashMap<>(Map.of("gpu", "0", "node", "n1"));
        Map<String, String> b = new LinkedHashMap<>();
        b.put("node", "n1");
        b.put("__name__", "DCGM_FI_DEV_GPU_UTIL");
        b.put("gpu", "0");
        b.put("pod", "");
        assertEquals(PromSelectors.id("DCGM_FI_DEV_GPU_UTIL", a), PromSelectors.id("DCGM_FI_DEV_GPU_UTIL", b));
        assertNotEquals(PromSelectors.id("DCGM_FI_DEV_GPU_UTIL", a), PromSelectors.id("DCGM_FI_DEV_FB_USED", a));
        assertNotEquals(PromSelectors.id("m", Map.of("ab", "c")), PromSelectors.id("m", Map.of("a", "bc")));
    }

    @Test
    void aSeriesRefTakesItsNodeFromTheNodeLabelElseTheFallbacks() {
        SeriesRef r = PromSelectors.ref(Map.of("__name__", "DCGM_FI_DEV_XID_ERRORS", "Hostname", "gpu-1", "gpu", "3"),
                "node", List.of("hostname", "Hostname"));
        assertEquals("gpu-1", r.node());
        assertEquals("3", r.gpu());
        assertEquals(Map.of("Hostname", "gpu-1", "gpu", "3"), r.labels());
        SeriesRef c = PromSelectors.ref(Map.of("__name__", "node_network_receive_bytes_total", "node", "n"), "node",
                List.of());
        assertEquals(true, c.counter());
        assertEquals("{__name__=\"node_network_receive_bytes_total\",node=\"n\"}", PromSelectors.of(c.metric(),
                List.of(c), "node"));
        assertEquals("{__name__=\"DCGM_FI_DEV_XID_ERRORS\"}", PromSelectors.of(r.metric(), List.of(r), "node"),
                "neither a node label nor a pod: all the metric's series, narrowed by id after");
    }

    @Test
    void longRangesAreCutAtDayBoundariesAndRollupsReadWholeBuckets() {
        long day = Resolution.DAY_MS;
        List<long[]> s = PromSeriesStore.splits(day / 2, 2 * day + 5, day);
        assertEquals(3, s.size());
        assertArrayEquals(new long[] {day / 2, day}, s.get(0));
        assertArrayEquals(new long[] {2 * day, 2 * day + 5}, s.get(2));
        assertEquals("label_replace(min_over_time(x[60000ms] offset 1ms), \"jobmon_agg\", \"min\", \"\", \"\")",
                PromSeriesStore.aggregates("x", 60_000).split(" or ")[0]);
        assertEquals("1.500", PromClient.seconds(1500));
    }
}
