package io.jobmon.metrics.query;

/** How values of one bucket combine: within a series, then across the series of a group. */
public enum Aggregation {
    AVG, MAX, MIN, SUM;

    public static Aggregation parse(String s) {
        if (s == null || s.isBlank()) {
            return AVG;
        }
        try {
            return valueOf(s.trim().toUpperCase());
        } catch (IllegalArgumentException e) {
            throw io.jobmon.contracts.problem.ApiException.invalid("aggregation", "field.one-of", "avg, max, min, sum");
        }
    }

    /** Combines {@code values} ignoring NaN; NaN when none. */
    public double combine(double[] values, int n) {
        double acc = Double.NaN;
        int count = 0;
        for (int i = 0; i < n; i++) {
            double x = values[i];
            if (Double.isNaN(x)) {
                continue;
            }
            if (count == 0) {
                acc = x;
            } else {
                acc = switch (this) {
                    case MAX -> Math.max(acc, x);
                    case MIN -> Math.min(acc, x);
                    case AVG, SUM -> acc + x;
                };
            }
            count++;
        }
        return this == AVG && count > 0 ? acc / count : acc;
    }
}
