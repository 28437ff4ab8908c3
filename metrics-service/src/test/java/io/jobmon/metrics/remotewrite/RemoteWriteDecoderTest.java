package io.jobmon.metrics.remotewrite;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.jobmon.contracts.events.MetricSamples;
import io.jobmon.contracts.problem.ApiException;
import io.jobmon.metrics.remotewrite.prompb.Types;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.xerial.snappy.Snappy;

/** Remote-write bodies to series per node. */
class RemoteWriteDecoderTest {

    static final List<String> NODE_LABELS = List.of("hostname", "Hostname", "node", "instance");

    @Test
    void seriesAreGroupedByTheNodeTheirLabelsNameWithSortedLabelsAndStaleMarkersDropped() {
        long t = 1_700_000_000_000L;
        Types.TimeSeries gpu = RemoteWriteBodies.series("DCGM_FI_DEV_GPU_UTIL",
                Map.of("Hostname", "gpu-1", "gpu", "0", "instance", "10.0.0.7:9400"), t, 3, 15_000, i -> 50 + i);
        Types.TimeSeries node = RemoteWriteBodies.series("node_load1", Map.of("instance", "gpu-2:9100", "job", "node"),
                t, 2, 15_000, i -> i == 1 ? Double.longBitsToDouble(0x7ff0000000000002L) : 1.5);
        RemoteWriteDecoder.Decoded d = RemoteWriteDecoder.decode(RemoteWriteBodies.body(List.of(gpu, node)), NODE_LABELS);
        assertEquals(4, d.samples());
        assertEquals(1, d.skipped(), "the staleness marker");
        assertEquals(1, d.byNode().get("gpu-1").size(), "one series");
        MetricSamples.Series util = d.byNode().get("gpu-1").get(0);
        assertArrayEquals(new long[] {t, t + 15_000, t + 30_000}, util.timestampsMs());
        assertArrayEquals(new double[] {50, 51, 52}, util.values());
        assertEquals(List.of("Hostname", "gpu", "instance"), List.copyOf(util.labels().keySet()), "labels sorted by name");
        assertEquals(1, d.byNode().get("gpu-2").get(0).size(), "instance without its port");
    }

    @Test
    void aBodyThatIsNotSnappyOrNotAWriteRequestIsA400NamingTheBody() throws Exception {
        var e = assertThrows(ApiException.class, () -> RemoteWriteDecoder.decode("hello".getBytes(), NODE_LABELS));
        assertEquals(400, e.status());
        var e2 = assertThrows(ApiException.class,
                () -> RemoteWriteDecoder.decode(Snappy.compress(new byte[] {(byte) 0xff, 0x01, 0x02}), NODE_LABELS));
        assertEquals(400, e2.status());
    }
}
