package io.jobmon.metrics.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.jobmon.contracts.http.ApiJson;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PointsJsonTest {

    @Test
    void writesWhatTheDefaultMapperWrites() throws Exception {
        Random random = new Random(7);
        List<Object[]> points = new ArrayList<>();
        long[] seconds = {0, -1, -86_400, 1_700_000_000L, 1_798_761_599L, 253_402_300_799L, -62_135_596_800L,
                -62_135_596_801L, 253_402_300_800L};
        for (long s : seconds) {
            points.add(new Object[] {Instant.ofEpochSecond(s), 1.0});
        }
        points.add(new Object[] {Instant.ofEpochSecond(1_798_761_600L, 500_000_000), 2.5});
        points.add(new Object[] {Instant.ofEpochSecond(1_798_761_600L, 123_456_789), -0.5});
        double[] values = {0.0, -0.0, 12.0, -1.25, 0.001, 0.01, 0.1, 0.123, 99.9, 1e6, 123456.789, -999999.999,
                1e15, 3.5e20, Math.PI, 1.0 / 3, -7.05};
        for (double v : values) {
            points.add(new Object[] {Instant.ofEpochSecond(1_798_761_600L), v});
        }
        for (int i = 0; i < 5000; i++) {
            double v = random.nextInt(4) == 0 ? random.nextGaussian() * 1e9 : random.nextDouble() * 200 - 50;
            points.add(new Object[] {Instant.ofEpochMilli(1_700_000_000_000L + random.nextLong(400_000_000_000L)),
                    random.nextBoolean() ? ChartEngine.round(v) : v});
        }
        points.add(new Object[] {Instant.ofEpochSecond(1_798_761_600L), 3});
        Chart.Series series = new Chart.Series("gpu_util", "%", Map.of("pod", "p"), "labels", points);

        ObjectMapper api = ApiJson.configure(new ObjectMapper().registerModule(new JavaTimeModule()));
        JsonNode written = api.readTree(api.writeValueAsString(series)).get("points");

        assertEquals(points.size(), written.size());
        for (int i = 0; i < points.size(); i++) {
            Object[] p = points.get(i);
            JsonNode w = written.get(i);
            assertEquals(ApiJson.TIME.format((Instant) p[0]), w.get(0).asText(), "time of point " + i);
            assertTrue(w.get(1).isNumber(), "value of point " + i);
            assertEquals(((Number) p[1]).doubleValue(), w.get(1).asDouble(), 0.0, "value of point " + i);
        }
        assertEquals("[\"2027-01-01T00:00:00.000Z\",-1.25]", written.get(seconds.length + 2 + 3).toString());
        assertEquals("[\"2027-01-01T00:00:00.000Z\",12]", written.get(seconds.length + 2 + 2).toString());
        assertEquals("[\"2027-01-01T00:00:00.000Z\",-7.05]", written.get(seconds.length + 2 + values.length - 1).toString());
    }

    /** A line of arrays ({@link LinePoints}: one raw value) is written as the same text as its points one by one. */
    @Test
    void aLineOfArraysIsWrittenAsTheSameText() throws Exception {
        Random random = new Random(11);
        LinePoints line = new LinePoints(4);
        double[] values = {0.0, -0.0, 12.0, -1.25, 0.001, 0.123, -999999.999, 1e15, 3.5e20, Math.PI, -7.05, -3};
        long t = 1_798_761_600_000L;
        for (double v : values) {
            line.add(t += 900_000, v);
        }
        for (int i = 0; i < 3000; i++) {
            double v = random.nextInt(4) == 0 ? random.nextGaussian() * 1e9 : random.nextDouble() * 200 - 50;
            line.add(1_700_000_000_000L + random.nextLong(400_000_000_000L), random.nextBoolean() ? ChartEngine.round(v) : v);
        }
        ObjectMapper api = ApiJson.configure(new ObjectMapper().registerModule(new JavaTimeModule()));
        String raw = api.writeValueAsString(new Chart.Series("gpu_util", "%", Map.of(), "labels", line));
        String oneByOne = api.writeValueAsString(new Chart.Series("gpu_util", "%", Map.of(), "labels",
                new ArrayList<>(line)));
        assertTrue(raw.contains("[\"2027-01-01T00:15:00.000Z\",0],[\"2027-01-01T00:30:00.000Z\",0]"), raw.substring(0, 200));
        assertEquals(oneByOne, raw);
        // a value the raw path does not take (not finite): the line is written point by point
        LinePoints odd = new LinePoints(2);
        odd.add(t, 1.5);
        odd.add(t + 1, Double.POSITIVE_INFINITY);
        assertEquals(api.writeValueAsString(new ArrayList<>(odd).stream().map(p -> p[1]).toList()).replace("[", "")
                .replace("]", "").split(",")[1], api.readTree(api.writeValueAsString(new Chart.Series("m", "u",
                        Map.of(), null, odd))).get("points").get(1).get(1).toString());
    }
}
