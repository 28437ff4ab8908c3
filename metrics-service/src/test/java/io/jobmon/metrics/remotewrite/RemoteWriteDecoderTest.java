package io.jobmon.metrics.remotewrite;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
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
    void labelsSentOutOfOrderOrTwiceAreSortedWithTheLastValueAndNamelessSeriesAreSkipped() throws Exception {
        long t = 1_700_000_000_000L;
        Types.TimeSeries unsorted = Types.TimeSeries.newBuilder()
                .addLabels(Types.Label.newBuilder().setName("gpu").setValue("1"))
                .addLabels(Types.Label.newBuilder().setName("__name__").setValue("DCGM_FI_DEV_GPU_TEMP"))
                .addLabels(Types.Label.newBuilder().setName("Hostname").setValue("gpu-1"))
                .addLabels(Types.Label.newBuilder().setName("gpu").setValue("2"))
                .addLabels(Types.Label.newBuilder().setName("pod").setValue(""))
                .addSamples(Types.Sample.newBuilder().setTimestamp(t).setValue(41)).build();
        Types.TimeSeries nameless = Types.TimeSeries.newBuilder()
                .addLabels(Types.Label.newBuilder().setName("Hostname").setValue("gpu-1"))
                .addSamples(Types.Sample.newBuilder().setTimestamp(t).setValue(1))
                .addSamples(Types.Sample.newBuilder().setTimestamp(t + 1).setValue(Double.NaN)).build();
        Types.TimeSeries other = RemoteWriteBodies.series("DCGM_FI_DEV_GPU_UTIL", Map.of("Hostname", "gpu-1", "gpu", "2"),
                t, 1, 15_000, i -> 7);
        RemoteWriteDecoder.Decoded d = RemoteWriteDecoder.decode(RemoteWriteBodies.body(List.of(unsorted, nameless, other)),
                NODE_LABELS);
        assertEquals(2, d.samples());
        assertEquals(2, d.skipped(), "both samples of the series without a name");
        MetricSamples.Series temp = d.byNode().get("gpu-1").get(0);
        assertEquals(List.of("Hostname", "gpu"), List.copyOf(temp.labels().keySet()));
        assertEquals("2", temp.labels().get("gpu"));
        assertArrayEquals(new double[] {41}, temp.values());
        // a string that comes again in the request is one String
        MetricSamples.Series util = d.byNode().get("gpu-1").get(1);
        assertSame(temp.labels().get("Hostname"), util.labels().get("Hostname"));
        // invalid UTF-8 in a string field is not a WriteRequest
        byte[] label = Types.Label.newBuilder().setName("a").setValue("b").build().toByteArray();
        label[label.length - 1] = (byte) 0xff;
        byte[] series = Types.TimeSeries.newBuilder().build().toByteArray();
        java.io.ByteArrayOutputStream w = new java.io.ByteArrayOutputStream();
        w.write(0x0a); // WriteRequest.timeseries
        w.write(label.length + 2);
        w.write(0x0a); // TimeSeries.labels
        w.write(label.length);
        w.write(label);
        w.write(series);
        var e = assertThrows(ApiException.class, () -> RemoteWriteDecoder.decode(Snappy.compress(w.toByteArray()), NODE_LABELS));
        assertEquals(400, e.status());
    }

    @Test
    void aBodyThatIsNotSnappyOrNotAWriteRequestIsA400NamingTheBody() throws Exception {
        var e = assertThrows(ApiException.class, () -> RemoteWriteDecoder.decode("hello".getBytes(), NODE_LABELS));
        assertEquals(400, e.status());
        var e2 = assertThrows(ApiException.class,
                () -> RemoteWriteDecoder.decode(Snappy.compress(new byte[] {(byte) 0xff, 0x01, 0x02}), NODE_LABELS));
        assertEquals(400, e2.status());
    }

    @Test
    void aSeriesSentAgainIsReadFromItsKeptLabelsWhateverTheNodeLabelsAndLabelsAfterItsSamplesCount() throws Exception {
        long t = 1_700_000_100_000L;
        Types.TimeSeries first = RemoteWriteBodies.series("DCGM_FI_DEV_SM_CLOCK",
                Map.of("Hostname", "gpu-7", "gpu", "3", "instance", "10.0.0.9:9400"), t, 2, 15_000, i -> 1410);
        Types.TimeSeries again = RemoteWriteBodies.series("DCGM_FI_DEV_SM_CLOCK",
                Map.of("Hostname", "gpu-7", "gpu", "3", "instance", "10.0.0.9:9400"), t + 30_000, 1, 15_000, i -> 1395);
        MetricSamples.Series a = RemoteWriteDecoder.decode(RemoteWriteBodies.body(List.of(first)), NODE_LABELS).byNode()
                .get("gpu-7").get(0);
        MetricSamples.Series b = RemoteWriteDecoder.decode(RemoteWriteBodies.body(List.of(again)), NODE_LABELS).byNode()
                .get("gpu-7").get(0);
        assertSame(a.labels(), b.labels(), "the labels read once");
        assertEquals("DCGM_FI_DEV_SM_CLOCK", b.name());
        assertArrayEquals(new long[] {t + 30_000}, b.timestampsMs());
        assertArrayEquals(new double[] {1395}, b.values());
        // the same bytes under other node labels: the node from those
        RemoteWriteDecoder.Decoded byInstance = RemoteWriteDecoder.decode(RemoteWriteBodies.body(List.of(again)),
                List.of("instance"));
        assertEquals(List.of("10.0.0.9"), List.copyOf(byInstance.byNode().keySet()));
        // a label field after the samples (the spec does not order the fields): added to the kept ones
        byte[] late = withLateLabel(again, "pod", "p-1");
        MetricSamples.Series c = RemoteWriteDecoder.decode(late, NODE_LABELS).byNode().get("gpu-7").get(0);
        assertEquals(List.of("Hostname", "gpu", "instance", "pod"), List.copyOf(c.labels().keySet()));
        assertEquals("p-1", c.labels().get("pod"));
        assertEquals(3, a.labels().size(), "the kept labels unchanged");
        // one that changes its name after its samples
        assertEquals("DCGM_FI_DEV_MEM_CLOCK", RemoteWriteDecoder.decode(withLateLabel(again, "__name__",
                "DCGM_FI_DEV_MEM_CLOCK"), NODE_LABELS).byNode().get("gpu-7").get(0).name());
    }

    /** A request of one series whose bytes end with one more label field, after its samples. */
    static byte[] withLateLabel(Types.TimeSeries series, String name, String value) throws Exception {
        byte[] label = Types.Label.newBuilder().setName(name).setValue(value).build().toByteArray();
        java.io.ByteArrayOutputStream ts = new java.io.ByteArrayOutputStream();
        ts.write(series.toByteArray());
        ts.write(0x0a); // TimeSeries.labels
        ts.write(label.length);
        ts.write(label);
        java.io.ByteArrayOutputStream w = new java.io.ByteArrayOutputStream();
        com.google.protobuf.CodedOutputStream out = com.google.protobuf.CodedOutputStream.newInstance(w);
        out.writeByteArray(1, ts.toByteArray()); // WriteRequest.timeseries
        out.flush();
        return Snappy.compress(w.toByteArray());
    }
}
