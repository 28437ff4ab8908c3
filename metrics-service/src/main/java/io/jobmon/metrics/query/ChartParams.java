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
                    throw ApiException.invalid("metric", "metrics.unknown-metric", one.trim());
                }
                if (!entries.contains(e)) {
                    entries.add(e);
                }
            }
        }
        if (entries.isEmpty()) {
            throw ApiException.invalid("metric", "metrics.no-metric");
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
            throw ApiException.invalid(field, "field.time");
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
        throw ApiException.invalid("step", "metrics.step");
    }

    /** The range to chart: the one asked, else the given defaults; checked. */
    public Instant[] range(Instant defaultFrom, Instant defaultTo) {
        Instant t = to != null ? to : defaultTo;
        Instant f = from != null ? from : defaultFrom;
        if (!f.isBefore(t)) {
            throw from != null ? ApiException.invalid("from", "field.before", "to") : ApiException.invalid("to", "field.after", "from");
        }
        if (Duration.between(f, t).compareTo(MAX_RANGE) > 0) {
            throw ApiException.invalid("from", "metrics.range", MAX_RANGE.toDays());
        }
        return new Instant[] {f, t};
    }
}
