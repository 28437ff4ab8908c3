package io.jobmon.metrics.ingest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.InvalidRecordException;
import io.jobmon.contracts.events.MetricSamples;
import io.jobmon.contracts.events.MetricSamplesBinary;
import io.jobmon.metrics.Fixtures;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Records of {@code jobmon.metrics.samples} in every form of the event: the binary form jobmon writes, and the JSON
 * forms that records already on the topic may still have: the series form (labels once per series) and the first
 * form (an object per sample).
 */
class SamplesDecoderTest {

    static final long T = 1_751_356_800_000L;

    static List<MetricSamples.Sample> samples() {
        Map<String, String> gpu0 = Fixtures.labels("gpu", "0", "Hostname", "n1", "pod", "p \"quoted\" 😀");
        Map<String, String> gpu1 = Fixtures.labels("gpu", "1", "Hostname", "n1");
        List<MetricSamples.Sample> out = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            out.add(new MetricSamples.Sample("DCGM_FI_DEV_GPU_UTIL", gpu0, T + i * 15_000L, 90 + i));
            out.add(new MetricSamples.Sample("DCGM_FI_DEV_GPU_UTIL", gpu1, T + i * 15_000L, 0.125 * i));
        }
        out.add(new MetricSamples.Sample("up", null, T, 1));
        return out;
    }

    @Test
    void aRecordOfTheFirstFormOneOfTheJsonSeriesFormAndABinaryOneGiveTheSameSeries() {
        String first = CloudEvents.encode("/test", MetricSamples.TYPE, "n1", new MetricSamples("n1", samples()));
        String series = Fixtures.jsonSeriesForm("n1", SeriesBuilder.of(samples()));
        byte[] binary = MetricSamplesBinary.encode("n1", SeriesBuilder.of(samples()));
        assertTrue(series.length() < first.length(), "labels once per series: " + series.length() + " < " + first.length());
        assertTrue(binary.length < series.length() / 2, "binary: " + binary.length + " bytes");
        SampleBatch a = SamplesDecoder.decode("n1", first.getBytes(StandardCharsets.UTF_8), 0, 1, T);
        SampleBatch b = SamplesDecoder.decode("n1", series.getBytes(StandardCharsets.UTF_8), 0, 2, T);
        SampleBatch c = SamplesDecoder.decode("n1", binary, 0, 3, T);
        assertEquals(7, a.samples());
        assertEquals(7, b.samples());
        assertEquals(7, c.samples());
        assertEquals(a.series(), b.series());
        assertEquals(b.series().subList(0, 2), c.series().subList(0, 2));
        assertEquals(Map.of(), c.series().get(2).labels(), "a series without labels has none in the binary form");
        MetricSamples.Series util0 = b.series().get(0);
        assertEquals(List.of("Hostname", "gpu", "pod"), List.copyOf(util0.labels().keySet()), "labels by name");
        assertEquals("p \"quoted\" 😀", util0.labels().get("pod"));
        assertArrayEquals(new long[] {T, T + 15_000, T + 30_000}, util0.timestampsMs());
        assertArrayEquals(new double[] {0, 0.125, 0.25}, b.series().get(1).values());
        assertEquals(null, b.series().get(2).labels());
    }

    @Test
    void aSeriesWithMoreTimesThanValuesOrWithoutTimesIsInvalidWithTheReason() {
        String uneven = "{\"specversion\":\"1.0\",\"id\":\"x\",\"type\":\"" + MetricSamples.TYPE + "\",\"data\":{\"node\":"
                + "\"n1\",\"series\":[{\"name\":\"up\",\"timestampsMs\":[" + T + "," + (T + 15_000) + "],\"values\":[1]}]}}";
        InvalidRecordException e = assertThrows(InvalidRecordException.class, () -> SamplesDecoder.decode("n1", uneven, 0, 0, T));
        assertTrue(e.getMessage().contains("series[0] has 2 timestamps and 1 values"), e.getMessage());
        String noTimes = "{\"specversion\":\"1.0\",\"id\":\"x\",\"type\":\"" + MetricSamples.TYPE + "\",\"data\":{\"node\":"
                + "\"n1\",\"series\":[{\"name\":\"up\",\"values\":[1]}]}}";
        e = assertThrows(InvalidRecordException.class, () -> SamplesDecoder.decode("n1", noTimes, 0, 0, T));
        assertTrue(e.getMessage().contains("series[0]"), e.getMessage());
        String secondsNotMs = "{\"specversion\":\"1.0\",\"id\":\"x\",\"type\":\"" + MetricSamples.TYPE + "\",\"data\":{"
                + "\"series\":[{\"name\":\"up\",\"timestampsMs\":[0],\"values\":[1]}]}}";
        e = assertThrows(InvalidRecordException.class, () -> SamplesDecoder.decode("n1", secondsNotMs, 0, 0, T));
        assertTrue(e.getMessage().contains("timestamp 0"), e.getMessage());
    }

    @Test
    void aBrokenBinaryRecordIsInvalidWithTheReasonAndSoIsABinarySeriesWithoutTimes() {
        byte[] binary = MetricSamplesBinary.encode("n1", SeriesBuilder.of(samples()));
        InvalidRecordException e = assertThrows(InvalidRecordException.class,
                () -> SamplesDecoder.decode("n1", Arrays.copyOf(binary, binary.length - 1), 0, 0, T));
        assertTrue(e.getMessage().contains("truncated"), e.getMessage());
        byte[] zeroTime = MetricSamplesBinary.encode("n1", List.of(new MetricSamples.Series("up", Map.of(),
                new long[] {0}, new double[] {1})));
        e = assertThrows(InvalidRecordException.class, () -> SamplesDecoder.decode("n1", zeroTime, 0, 0, T));
        assertTrue(e.getMessage().contains("timestamp 0"), e.getMessage());
        e = assertThrows(InvalidRecordException.class, () -> SamplesDecoder.decode("n1", new byte[9 << 20], 0, 0, T));
        assertTrue(e.getMessage().contains("over the"), e.getMessage());
        // the node: the record's own, else its key
        SampleBatch keyed = SamplesDecoder.decode("n2", MetricSamplesBinary.encode(null, SeriesBuilder.of(samples())), 0, 0, T);
        assertEquals("n2", keyed.node());
    }

    @Test
    void aLongSeriesIsCutBetweenItsPointsIntoRecordsOfAtMostTheLimit() {
        List<MetricSamples.Sample> many = new ArrayList<>();
        for (int i = 0; i < 1_100; i++) {
            many.add(new MetricSamples.Sample("DCGM_FI_DEV_POWER_USAGE", Fixtures.labels("gpu", "0"), T + i * 15_000L, i));
        }
        many.addAll(samples());
        List<MetricSamples.Series> series = SeriesBuilder.of(many);
        List<List<MetricSamples.Series>> parts = SeriesBuilder.split(series, 500);
        assertEquals(3, parts.size());
        assertEquals(List.of(500, 500, 107), parts.stream().map(SeriesBuilder::count).toList());
        List<Double> power = new ArrayList<>();
        parts.forEach(p -> p.stream().filter(s -> s.name().equals("DCGM_FI_DEV_POWER_USAGE"))
                .forEach(s -> { for (double v : s.values()) { power.add(v); } }));
        assertEquals(1_100, power.size());
        for (int i = 0; i < power.size(); i++) {
            assertEquals(i, power.get(i), "every point once, in order");
        }
    }

    @Test
    void binaryRecordsShareTheirStringsAcrossRecordsSoSeriesKeysCompareIdenticalInstances() {
        List<MetricSamples.Series> series = SeriesBuilder.of(samples());
        byte[] value = MetricSamplesBinary.encode("n1", series);
        SampleBatch a = SamplesDecoder.decode("n1", value, 0, 1, T);
        SampleBatch b = SamplesDecoder.decode("n1", value.clone(), 0, 2, T);
        MetricSamples.Series first = a.series().get(0);
        MetricSamples.Series again = b.series().get(0);
        assertEquals(first, again);
        assertSame(first.name(), again.name());
        assertSame(first.labels().get("pod"), again.labels().get("pod"), "a label value, non-ASCII included");
        assertEquals("p \"quoted\" 😀", again.labels().get("pod"));
        assertSame(a.node(), b.node());
        // the default decode makes its own strings
        MetricSamples plain = MetricSamplesBinary.decode(value);
        assertNotSame(first.name(), plain.series().get(0).name());
        assertEquals(first.name(), plain.series().get(0).name());
    }
}
