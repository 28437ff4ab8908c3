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
