package io.jobmon.metrics.query;

import io.jobmon.contracts.problem.ApiException;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/** The query parameters of a chart, checked: every bad one is a 400 naming it. */
public record ChartParams(List<Catalogue.Entry> metrics, Instant from, Instant to, long stepMs, int maxPoints,
        GroupBy groupBy, Aggregation aggregation) {

    static final Duration MAX_RANGE = Duration.ofDays(400);

    public static ChartParams parse(List<String> metric, String from, String to, String step, String resolution,
            String groupBy, String aggregation, List<String> defaultMetrics, GroupBy defaultGroup) {
        List<Catalogue.Entry> entries = new ArrayList<>();
        for (String m : metric == null || metric.isEmpty() ? defaultMetrics : metric) {
            for (String one : m.split(",")) {
                if (one.isBlank()) {
                    continue;
                }
                Catalogue.Entry e = Catalogue.get(one.trim());
                if (e == null) {
                    throw ApiException.badRequest("metric", "unknown metric '" + one.trim()
                            + "'; GET /api/v1/metrics/catalogue lists them");
                }
                if (!entries.contains(e)) {
                    entries.add(e);
                }
            }
        }
        if (entries.isEmpty()) {
            throw ApiException.badRequest("metric", "name at least one metric");
        }
        return new ChartParams(entries, time("from", from), time("to", to), step(step),
                ResolutionChoice.maxPoints(resolution), GroupBy.parse(groupBy, defaultGroup), Aggregation.parse(aggregation));
    }

    static Instant time(String field, String raw) {
        if (raw == null || raw.isBlank()) {
            return null;
        }
        try {
            return Instant.parse(raw.trim());
        } catch (DateTimeParseException e) {
            throw ApiException.badRequest(field, "an RFC 3339 UTC time, e.g. 2026-12-01T10:00:00Z");
        }
    }

    /** Seconds ({@code 60}) or a duration ({@code 30s}, {@code 5m}, {@code 1h}); 0 = automatic. */
    static long step(String raw) {
        if (raw == null || raw.isBlank()) {
            return 0;
        }
        String s = raw.trim().toLowerCase();
        try {
            long unit = 1000;
            if (s.endsWith("s")) {
                s = s.substring(0, s.length() - 1);
            } else if (s.endsWith("m")) {
                unit = 60_000;
                s = s.substring(0, s.length() - 1);
            } else if (s.endsWith("h")) {
                unit = 3_600_000;
                s = s.substring(0, s.length() - 1);
            }
            long v = Long.parseLong(s) * unit;
            if (v >= 1000 && v <= Duration.ofDays(1).toMillis()) {
                return v;
            }
        } catch (NumberFormatException e) {
            // the 400 below
        }
        throw ApiException.badRequest("step", "seconds (60) or a duration (30s, 5m, 1h) from 1s to 24h");
    }

    /** The range to chart: the one asked, else the given defaults; checked. */
    public Instant[] range(Instant defaultFrom, Instant defaultTo) {
        Instant t = to != null ? to : defaultTo;
        Instant f = from != null ? from : defaultFrom;
        if (!f.isBefore(t)) {
            throw ApiException.badRequest(from != null ? "from" : "to", "'from' must be before 'to'");
        }
        if (Duration.between(f, t).compareTo(MAX_RANGE) > 0) {
            throw ApiException.badRequest("from", "a chart spans at most 400 days");
        }
        return new Instant[] {f, t};
    }
}
