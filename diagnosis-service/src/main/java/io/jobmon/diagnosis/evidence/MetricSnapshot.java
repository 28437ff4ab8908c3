package io.jobmon.diagnosis.evidence;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jobmon.contracts.http.ApiJson;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * The raw performance snapshot kept with a diagnosis: the metric series of its bundle (what the engine read: the
 * window at full resolution, the run before it at coarse steps) as {@code {metric, name, labels, points}}, each
 * series bounded to {@code maxPoints}: repeated values (an error counter that stays at 0, a constant clock) are first
 * reduced to where they change, then a longer series is thinned with largest-triangle-three-buckets, which keeps
 * real points and the peaks and dips that make a chart's shape. Times are the API's (RFC 3339 UTC, milliseconds).
 */
public final class MetricSnapshot {

    private MetricSnapshot() {
    }

    /** The snapshot of a bundle's {@code metrics} (dcgm-exporter names and labels, {@code [time, value]} samples). */
    public static ArrayNode of(JsonNode bundleMetrics, int maxPoints) {
        ArrayNode out = Json.array();
        for (JsonNode m : Json.items(bundleMetrics)) {
            List<double[]> points = new ArrayList<>();
            for (JsonNode s : m.path("samples")) {
                Instant t = instant(s.path(0).asText(null));
                if (t != null && s.path(1).isNumber()) {
                    points.add(new double[] {t.toEpochMilli(), s.get(1).asDouble()});
                }
            }
            ObjectNode series = out.addObject();
            String name = m.path("name").asText();
            series.put("metric", MetricShapes.shortName(name));
            series.put("name", name);
            series.set("labels", m.path("labels").isObject() ? m.get("labels") : Json.object());
            ArrayNode written = series.putArray("points");
            for (double[] p : thin(changes(points), maxPoints)) {
                written.addArray().add(ApiJson.TIME.format(Instant.ofEpochMilli((long) p[0]))).add(p[1]);
            }
        }
        return out;
    }

    /** The points where the value changes: of a run of equal values, its first and last point. */
    static List<double[]> changes(List<double[]> points) {
        List<double[]> out = new ArrayList<>();
        for (int i = 0; i < points.size(); i++) {
            boolean sameAsBefore = i > 0 && points.get(i - 1)[1] == points.get(i)[1];
            boolean sameAsAfter = i + 1 < points.size() && points.get(i + 1)[1] == points.get(i)[1];
            if (!(sameAsBefore && sameAsAfter)) {
                out.add(points.get(i));
            }
        }
        return out;
    }

    /** Largest-triangle-three-buckets (Steinarsson 2013): at most {@code max} of the points, first and last kept. */
    static List<double[]> thin(List<double[]> points, int max) {
        int n = points.size();
        if (n <= max || max < 3) {
            return n <= max ? points : points.subList(0, Math.max(0, max));
        }
        List<double[]> out = new ArrayList<>(max);
        out.add(points.get(0));
        double every = (double) (n - 2) / (max - 2);
        int a = 0;
        for (int i = 0; i < max - 2; i++) {
            int start = (int) Math.floor(i * every) + 1;
            int end = Math.min((int) Math.floor((i + 1) * every) + 1, n - 1);
            int nextEnd = Math.min((int) Math.floor((i + 2) * every) + 1, n);
            double avgX = 0;
            double avgY = 0;
            int count = Math.max(1, nextEnd - end);
            for (int j = end; j < end + count && j < n; j++) {
                avgX += points.get(j)[0];
                avgY += points.get(j)[1];
            }
            avgX /= count;
            avgY /= count;
            double[] pa = points.get(a);
            double best = -1;
            int chosen = start;
            for (int j = start; j < end; j++) {
                double[] p = points.get(j);
                double area = Math.abs((pa[0] - avgX) * (p[1] - pa[1]) - (pa[0] - p[0]) * (avgY - pa[1]));
                if (area > best) {
                    best = area;
                    chosen = j;
                }
            }
            out.add(points.get(chosen));
            a = chosen;
        }
        out.add(points.get(n - 1));
        return out;
    }

    private static Instant instant(String text) {
        try {
            return text == null ? null : Instant.parse(text);
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
