package io.jobmon.jobs.support;

import java.time.Duration;
import java.time.Instant;

/** Queue and run time of a job (architecture.md, "Job states") and their human form such as {@code 2h 13m}. */
public final class Durations {

    private Durations() {
    }

    /**
     * Start minus submission; while not started, now minus submission. A job that ended without ever starting
     * (an image that never pulled) waited until it ended, so its queue time stops growing then.
     */
    public static long queueSeconds(Instant submitted, Instant started, Instant finished, Instant now) {
        Instant end = started != null ? started : finished != null ? finished : now;
        return Math.max(0, Duration.between(submitted, end).toSeconds());
    }

    /** End (or now) minus start; 0 for a job that never started. */
    public static long runSeconds(Instant started, Instant finished, Instant now) {
        if (started == null) {
            return 0;
        }
        return Math.max(0, Duration.between(started, finished != null ? finished : now).toSeconds());
    }

    /**
     * {@code 45s}, {@code 3m 5s}, {@code 2h 13m}, {@code 3d 4h} in the reader's language ({@code 2小时13分钟}): the
     * two largest units, seconds dropped past an hour.
     */
    public static String human(long seconds, io.jobmon.contracts.i18n.Texts t) {
        long[] p = parts(seconds);
        String key = p[0] > 0 ? (p[1] > 0 ? "duration.dh" : "duration.d")
                : p[1] > 0 ? (p[2] > 0 ? "duration.hm" : "duration.h")
                : p[2] > 0 ? (p[3] > 0 ? "duration.ms" : "duration.m") : "duration.s";
        return switch (key) {
            case "duration.dh" -> t.text(key, p[0], p[1]);
            case "duration.d" -> t.text(key, p[0]);
            case "duration.hm" -> t.text(key, p[1], p[2]);
            case "duration.h" -> t.text(key, p[1]);
            case "duration.ms" -> t.text(key, p[2], p[3]);
            case "duration.m" -> t.text(key, p[2]);
            default -> t.text(key, p[3]);
        };
    }

    /** Days, hours, minutes, seconds. */
    private static long[] parts(long seconds) {
        long s = Math.max(0, seconds);
        return new long[] {s / 86_400, s % 86_400 / 3_600, s % 3_600 / 60, s % 60};
    }

    /** {@code 45s}, {@code 3m 5s}, {@code 2h 13m}, {@code 3d 4h}: the two largest units, seconds dropped past an hour. */
    public static String human(long seconds) {
        if (seconds < 0) {
            seconds = 0;
        }
        long d = seconds / 86_400;
        long h = seconds % 86_400 / 3_600;
        long m = seconds % 3_600 / 60;
        long s = seconds % 60;
        if (d > 0) {
            return h > 0 ? d + "d " + h + "h" : d + "d";
        }
        if (h > 0) {
            return m > 0 ? h + "h " + m + "m" : h + "h";
        }
        if (m > 0) {
            return s > 0 ? m + "m " + s + "s" : m + "m";
        }
        return s + "s";
    }
}
