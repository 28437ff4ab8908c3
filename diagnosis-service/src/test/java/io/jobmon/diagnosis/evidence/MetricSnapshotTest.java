package io.jobmon.diagnosis.evidence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The snapshot kept with a diagnosis: bounded per series, shape and extremes kept, times to the millisecond. */
class MetricSnapshotTest {

    static final Instant START = Instant.parse("2026-12-05T10:00:00Z");

    static ArrayNode bundle(String name, double[] values) {
        ArrayNode metrics = JsonNodeFactory.instance.arrayNode();
        ObjectNode m = metrics.addObject();
        m.put("name", name);
        m.putObject("labels").put("gpu", "0").put("Hostname", "n1");
        ArrayNode samples = m.putArray("samples");
        for (int i = 0; i < values.length; i++) {
            samples.addArray().add(START.plusSeconds(15L * i).toString()).add(values[i]);
        }
        return metrics;
    }

    @Test
    void aLongSeriesIsThinnedToTheBoundKeepingItsEndsAndItsSpike() {
        double[] values = new double[5000];
        for (int i = 0; i < values.length; i++) {
            values[i] = 50 + 10 * Math.sin(i / 40.0);
        }
        values[3217] = 100;
        values[4000] = 0;
        JsonNode series = MetricSnapshot.of(bundle("DCGM_FI_DEV_GPU_UTIL", values), 300).get(0);
        assertEquals("gpu_util", series.path("metric").asText());
        assertEquals("DCGM_FI_DEV_GPU_UTIL", series.path("name").asText());
        assertEquals("n1", series.path("labels").path("Hostname").asText());
        JsonNode points = series.path("points");
        assertEquals(300, points.size());
        assertEquals("2026-12-05T10:00:00.000Z", points.get(0).get(0).asText());
        assertEquals(START.plusSeconds(15L * 4999), Instant.parse(points.get(299).get(0).asText()));
        List<Double> kept = new ArrayList<>();
        points.forEach(p -> kept.add(p.get(1).asDouble()));
        assertTrue(kept.contains(100.0) && kept.contains(0.0), "the spike and the dip survive: " + kept);
    }

    @Test
    void aSeriesThatStaysTheSameKeepsOnlyWhereItChanges() {
        double[] values = new double[2000];
        values[1500] = 1;
        values[1501] = 1;
        JsonNode points = MetricSnapshot.of(bundle("DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", values), 300).get(0).path("points");
        List<Double> kept = new ArrayList<>();
        points.forEach(p -> kept.add(p.get(1).asDouble()));
        assertEquals(List.of(0.0, 0.0, 1.0, 1.0, 0.0, 0.0), kept);
        assertEquals(START.plusSeconds(15L * 1499), Instant.parse(points.get(1).get(0).asText()));
    }

    @Test
    void aShortSeriesIsKeptWhole() {
        JsonNode points = MetricSnapshot.of(bundle("DCGM_FI_DEV_POWER_USAGE", new double[] {1, 2, 3}), 300).get(0)
                .path("points");
        assertEquals(3, points.size());
    }
}
