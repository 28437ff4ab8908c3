package io.jobmon.contracts.events;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The binary form of {@code jobmon.metrics.samples} records: what goes in comes out, and a broken record says why. */
class MetricSamplesBinaryTest {

    static final long T = 1_751_356_800_000L;

    static Map<String, String> labels(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    static List<MetricSamples.Series> series() {
        return List.of(
                new MetricSamples.Series("DCGM_FI_DEV_GPU_UTIL", labels("Hostname", "n1", "gpu", "0", "pod", "p \"q\" 😀"),
                        new long[] {T, T + 15_000, T + 30_000}, new double[] {90, Double.POSITIVE_INFINITY, -0.0}),
                new MetricSamples.Series("DCGM_FI_DEV_GPU_UTIL", labels("Hostname", "n1", "gpu", "1"),
                        new long[] {T + 30_000, T}, new double[] {0.1, Double.MIN_VALUE}),
                new MetricSamples.Series("up", labels(), new long[] {1}, new double[] {1}));
    }

    @Test
    void aRecordReadsBackAsTheSameSeriesWithTheirLabelOrderAndExactValues() {
        byte[] value = MetricSamplesBinary.encode("n1", series());
        assertTrue(MetricSamplesBinary.isBinary(value));
        MetricSamples back = MetricSamplesBinary.decode(value);
        assertEquals("n1", back.node());
        assertEquals(series(), back.series());
        assertEquals(List.of("Hostname", "gpu", "pod"), List.copyOf(back.series().get(0).labels().keySet()));
        assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(back.series().get(0).values()[2]));
        assertEquals(6, back.sampleCount());
        assertEquals(null, MetricSamplesBinary.decode(MetricSamplesBinary.encode(null, series())).node());
        // a series without labels comes back with none
        MetricSamples none = MetricSamplesBinary.decode(MetricSamplesBinary.encode("n1",
                List.of(new MetricSamples.Series("up", null, new long[] {T}, new double[] {1}))));
        assertEquals(Map.of(), none.series().get(0).labels());
    }

    @Test
    void itIsSmallerThanTheJsonEventAndNeverTakenForJson() {
        byte[] value = MetricSamplesBinary.encode("n1", series());
        byte[] json = CloudEvents.encode("/test", MetricSamples.TYPE, "n1", MetricSamples.ofSeries("n1", series()))
                .getBytes(StandardCharsets.UTF_8);
        assertTrue(value.length < json.length / 2, value.length + " bytes against " + json.length);
        assertFalse(MetricSamplesBinary.isBinary(json));
        assertFalse(MetricSamplesBinary.isBinary(" {}".getBytes(StandardCharsets.UTF_8)));
        assertFalse(MetricSamplesBinary.isBinary(new byte[0]));
        assertFalse(MetricSamplesBinary.isBinary(null));
    }

    @Test
    void aBrokenRecordIsInvalidWithTheReason() {
        byte[] value = MetricSamplesBinary.encode("n1", series());
        assertReason("truncated", Arrays.copyOf(value, value.length - 3));
        assertReason("truncated", Arrays.copyOf(value, 9));
        assertReason("after its last series", Arrays.copyOf(value, value.length + 2));
        byte[] v2 = value.clone();
        v2[4] = 2;
        assertReason("version 2 is not supported", v2);
        assertReason("no 0x00 'JMS' header", new byte[] {0, 'X', 'M', 'S', 1, 0, 0, 0});
        // one string ("a"), no node, one series whose name is string 5
        assertReason("names string 5 of 1", new byte[] {0, 'J', 'M', 'S', 1, 1, 1, 'a', 0, 1, 5, 0, 0});
        // a series claiming a million points in a few bytes: refused before anything is allocated
        assertReason("truncated", new byte[] {0, 'J', 'M', 'S', 1, 1, 1, 'a', 0, 1, 0, 0, (byte) 0xc0, (byte) 0x84, 0x3d, 0});
        // the same label twice
        assertReason("twice", new byte[] {0, 'J', 'M', 'S', 1, 1, 1, 'a', 0, 1, 0, 2, 0, 0, 0, 0, 0});
    }

    static void assertReason(String expected, byte[] value) {
        InvalidRecordException e = assertThrows(InvalidRecordException.class, () -> MetricSamplesBinary.decode(value));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    @Test
    void manyPointsAndStringsRoundTrip() {
        long[] t = new long[2_000];
        double[] v = new double[2_000];
        for (int i = 0; i < t.length; i++) {
            t[i] = T + i * 15_000L + (i % 7 == 0 ? -40_000 : 0);
            v[i] = Math.sin(i) * 1e6;
        }
        Map<String, String> many = new LinkedHashMap<>();
        for (int i = 0; i < 200; i++) {
            many.put("l" + i, "v".repeat(i));
        }
        MetricSamples.Series s = new MetricSamples.Series("big", many, t, v);
        MetricSamples back = MetricSamplesBinary.decode(MetricSamplesBinary.encode("node-" + "x".repeat(300), List.of(s)));
        assertEquals(List.of(s), back.series());
        assertArrayEquals(t, back.series().get(0).timestampsMs());
    }

    @Test
    void theBytesOfARecordArePinned() {
        // records already on the topic must still read: a change here is a change of the wire format (ADR 0007)
        String hex = "004a4d530109144443474d5f46495f4445565f4750555f5554494c08486f73746e616d65026e3103677075013003706f"
                + "640a702022712220f09f98800131027570030300030102030405060380f0ffcff865b0ea01b0ea014056800000000000"
                + "7ff0000000000000800000000000000000020102030702e0c483d0f865dfd4033fb999999999999a0000000000000001"
                + "080001023ff0000000000000";
        assertEquals(hex, java.util.HexFormat.of().formatHex(MetricSamplesBinary.encode("n1", series())));
        assertEquals(series(), MetricSamplesBinary.decode(java.util.HexFormat.of().parseHex(hex)).series());
    }
}
