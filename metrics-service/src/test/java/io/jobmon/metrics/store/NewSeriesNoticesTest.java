package io.jobmon.metrics.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.jobmon.contracts.events.MetricSamples;
import io.jobmon.metrics.ingest.SampleBatch;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The notices of series the forwarder had not sent before (ADR 0057). */
class NewSeriesNoticesTest {

    static SampleBatch batch(String node, String name, Map<String, String> labels) {
        return new SampleBatch(0, 0, 0, node, List.of(new MetricSamples.Series(name, labels, new long[] {1000},
                new double[] {1})), 1);
    }

    @Test
    void aSeriesIsNoticedByItsNodeAndPodOnceThenAgainWhenForgotten() {
        NewSeriesNotices.forget();
        Map<String, String> gpu0 = Map.of("gpu", "0", "pod", "p-0");
        assertArrayEquals(new String[] {"node:n1", "pod:p-0"},
                NewSeriesNotices.tokens(List.of(batch("n1", "DCGM_FI_DEV_GPU_UTIL", gpu0))));
        assertArrayEquals(new String[0], NewSeriesNotices.tokens(List.of(batch("n1", "DCGM_FI_DEV_GPU_UTIL", gpu0))));
        // another metric of the pod, the same series on another node, a node's series without pod labels
        assertArrayEquals(new String[] {"node:n1", "node:n2", "pod:p-0"}, NewSeriesNotices.tokens(List.of(
                batch("n1", "DCGM_FI_DEV_FB_USED", gpu0), batch("n2", "DCGM_FI_DEV_GPU_UTIL", gpu0),
                batch("n2", "node_load1", Map.of()))));
        NewSeriesNotices.forget();
        assertArrayEquals(new String[] {"node:n1", "pod:p-0"},
                NewSeriesNotices.tokens(List.of(batch("n1", "DCGM_FI_DEV_GPU_UTIL", gpu0))));
    }
}
