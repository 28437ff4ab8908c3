package io.jobmon.metrics.store;

/** The resolutions the store keeps: raw samples in 2-hour chunks, 1-minute and 1-hour rollups. */
public enum Resolution {
    RAW(0, "raw"), MINUTE(60_000, "1m"), HOUR(3_600_000, "1h");

    /** Raw chunks and 1-minute rollup chunks cover one window; a window is compacted as a whole. */
    public static final long WINDOW_MS = 2 * 3_600_000L;
    /** 1-hour rollups are kept one chunk per series and UTC day. */
    public static final long DAY_MS = 24 * 3_600_000L;

    /** Bucket length in milliseconds (0 for raw). */
    public final long bucketMs;
    public final String label;

    Resolution(long bucketMs, String label) {
        this.bucketMs = bucketMs;
        this.label = label;
    }

    public static long window(long ms) {
        return Math.floorDiv(ms, WINDOW_MS) * WINDOW_MS;
    }

    public static long day(long ms) {
        return Math.floorDiv(ms, DAY_MS) * DAY_MS;
    }
}
