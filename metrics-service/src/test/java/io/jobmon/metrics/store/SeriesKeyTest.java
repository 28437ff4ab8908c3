package io.jobmon.metrics.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.jobmon.contracts.events.MetricSamples;
import io.jobmon.contracts.events.MetricSamplesBinary;
import io.jobmon.metrics.Fixtures;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A series is the same series whatever the order of its labels or an empty label, and keeps its stored key. */
class SeriesKeyTest {

    @Test
    void labelOrderAndEmptyLabelsDoNotMakeAnotherSeries() {
        SeriesKey sorted = SeriesKey.of("n1", "DCGM_FI_DEV_GPU_UTIL", Fixtures.labels("Hostname", "n1", "gpu", "0"));
        SeriesKey unsorted = SeriesKey.of("n1", "DCGM_FI_DEV_GPU_UTIL", Fixtures.labels("gpu", "0", "Hostname", "n1"));
        SeriesKey empty = SeriesKey.of("n1", "DCGM_FI_DEV_GPU_UTIL", Fixtures.labels("gpu", "0", "pod", "", "Hostname", "n1"));
        assertEquals(sorted, unsorted);
        assertEquals(sorted, empty);
        assertEquals(sorted.hashCode(), empty.hashCode());
        assertEquals(SeriesKey.of("n1", "up", null), SeriesKey.of("n1", "up", Map.of("a", "")));
    }

    @Test
    void anotherNodeNameOrValueIsAnotherSeries() {
        SeriesKey k = SeriesKey.of("n1", "up", Fixtures.labels("gpu", "0"));
        assertNotEquals(k, SeriesKey.of("n2", "up", Fixtures.labels("gpu", "0")));
        assertNotEquals(k, SeriesKey.of("n1", "down", Fixtures.labels("gpu", "0")));
        assertNotEquals(k, SeriesKey.of("n1", "up", Fixtures.labels("gpu", "1")));
        assertNotEquals(k, SeriesKey.of("n1", "up", Fixtures.labels("gpu", "0", "pod", "p")));
        // a label value is not confused with the next label's name
        assertNotEquals(SeriesKey.of("n1", "up", Fixtures.labels("a", "b")), SeriesKey.of("n1", "up", Fixtures.labels("ab", "")));
    }

    @Test
    void theLabelsOfABinaryRecordAreTheSameSeriesAsTheMapTheyWereWrittenFrom() {
        for (Map<String, String> labels : java.util.List.of(Fixtures.labels("Hostname", "n1", "gpu", "0"),
                Fixtures.labels("gpu", "0", "Hostname", "n1"), Fixtures.labels("Hostname", "n1", "gpu", "0", "pod", ""))) {
            MetricSamples decoded = MetricSamplesBinary.decode(MetricSamplesBinary.encode("n1", java.util.List.of(
                    new MetricSamples.Series("up", labels, new long[] {1}, new double[] {1}))));
            SeriesKey k = SeriesKey.of("n1", "up", decoded.series().get(0).labels());
            assertEquals(SeriesKey.of("n1", "up", Fixtures.labels("Hostname", "n1", "gpu", "0")), k);
            assertEquals("n1|up{Hostname=\"n1\",gpu=\"0\"}", k.text());
        }
    }

    /** The text whose MD5 digest the table holds: series stored before find their ids again. */
    @Test
    void theTextIsTheKeyOfTheStoredSeries() {
        assertEquals("n1|DCGM_FI_DEV_GPU_UTIL{Hostname=\"n1\",gpu=\"0\",pod=\"p \"q\"\"}", SeriesKey.of("n1",
                "DCGM_FI_DEV_GPU_UTIL", Fixtures.labels("pod", "p \"q\"", "gpu", "0", "Hostname", "n1", "x", "")).text());
        assertEquals("n1|up{}", SeriesKey.of("n1", "up", null).text());
    }
}
