package io.jobmon.diagnosis.engine;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** Formatting of times, durations and speeds for summaries and metric evidence. */
final class Fmt {

    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);

    private Fmt() {
    }

    static String clock(Instant t) {
        return t == null ? "?" : CLOCK.format(t) + "Z";
    }

    static String minutes(Duration d) {
        long m = Math.round(d.toSeconds() / 60.0);
        return m + " min";
    }

    static String minutesZh(Duration d) {
        return Math.round(d.toSeconds() / 60.0) + " 分钟";
    }

    /** {@code 1.21 it/s}, or {@code 6.3 s/it} below one step per second. */
    static String rate(double stepsPerSecond) {
        if (Double.isNaN(stepsPerSecond) || stepsPerSecond <= 0) {
            return "?";
        }
        if (stepsPerSecond < 1) {
            return String.format(Locale.ROOT, "%.1f s/it", 1.0 / stepsPerSecond);
        }
        return String.format(Locale.ROOT, "%.2f it/s", stepsPerSecond);
    }

    static String num(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.format(Locale.ROOT, "%.2f", v);
    }

    static String percent(double fraction) {
        return Math.round(fraction * 100) + " %";
    }
}
