package io.jobmon.metrics.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jobmon.contracts.events.MetricSamples;
import io.jobmon.metrics.remotewrite.prompb.Remote;
import io.jobmon.metrics.remotewrite.prompb.Types;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.xerial.snappy.Snappy;

/** What jobmon remote-writes to the engine in {@code prometheus} mode (ADR 0036). */
class EngineForwarderTest {

    static MetricSamples.Series series(String name, Map<String, String> labels, int n) {
        long[] t = new long[n];
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            t[i] = 1_000L * i;
            v[i] = i;
        }
        return new MetricSamples.Series(name, labels, t, v);
    }

    @Test
    void seriesGoWithTheirNameAndTheRecordsNodeSortedAndAreCutIntoRequestsWithoutSplittingOne() throws Exception {
        List<SampleBatch> records = List.of(new SampleBatch(0, 0, 0, "gpu-1", List.of(
                series("DCGM_FI_DEV_GPU_UTIL", Map.of("gpu", "0", "pod", "p", "container", ""), 3),
                series("DCGM_FI_DEV_GPU_UTIL", Map.of("gpu", "1", "node", "other"), 3),
                series("empty", Map.of(), 0)), 6));
        List<byte[]> bodies = EngineForwarder.bodies(records, "node", 4);
        assertEquals(2, bodies.size(), "3 + 3 samples, at most 4 a request: a series is never cut");
        Remote.WriteRequest first = Remote.WriteRequest.parseFrom(Snappy.uncompress(bodies.get(0)));
        Types.TimeSeries s = first.getTimeseries(0);
        assertEquals(List.of("__name__=DCGM_FI_DEV_GPU_UTIL", "gpu=0", "node=gpu-1", "pod=p"),
                s.getLabelsList().stream().map(l -> l.getName() + "=" + l.getValue()).toList());
        assertEquals(3, s.getSamplesCount());
        assertEquals(2_000L, s.getSamples(2).getTimestamp());
        Remote.WriteRequest second = Remote.WriteRequest.parseFrom(Snappy.uncompress(bodies.get(1)));
        assertEquals("other", second.getTimeseries(0).getLabelsList().stream().filter(l -> l.getName().equals("node"))
                .findFirst().orElseThrow().getValue(), "a node label of the series' own is kept");
    }
}
