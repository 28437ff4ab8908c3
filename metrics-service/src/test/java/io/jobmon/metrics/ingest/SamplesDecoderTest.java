package io.jobmon.metrics.ingest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.InvalidRecordException;
import io.jobmon.contracts.events.MetricSamples;
import io.jobmon.metrics.Fixtures;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Records of {@code jobmon.metrics.samples} in both forms of the event: the series form jobmon writes (labels once per
 * series) and the first form (an object per sample) that records already on the topic may still have.
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
    void aRecordOfTheFirstFormAndOneOfTheSeriesFormGiveTheSameSeries() {
        String first = CloudEvents.encode("/test", MetricSamples.TYPE, "n1", new MetricSamples("n1", samples()));
        String series = SamplesPublisher.encode("n1", SeriesBuilder.of(samples()));
        assertTrue(series.length() < first.length(), "labels once per series: " + series.length() + " < " + first.length());
        SampleBatch a = SamplesDecoder.decode("n1", first, 0, 1, T);
        SampleBatch b = SamplesDecoder.decode("n1", series, 0, 2, T);
        assertEquals(7, a.samples());
        assertEquals(7, b.samples());
        assertEquals(a.series(), b.series());
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
}
