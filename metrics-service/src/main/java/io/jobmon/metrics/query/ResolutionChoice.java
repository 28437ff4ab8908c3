package io.jobmon.metrics.query;

import io.jobmon.contracts.problem.ApiException;
import io.jobmon.metrics.store.Resolution;

/**
 * Which stored resolution answers a chart and at which step. Automatic: the step that keeps a series within
 * {@code maxPoints} (1,000 for {@code resolution=high}, 300 medium, 100 low), rounded up to a chart-friendly
 * step no finer than the scrape interval, read from the coarsest stored resolution that divides it (rollups
 * whenever the step is a minute or more) and still holds data at {@code from} (raw 3 days, 1 min 30 days).
 */
public record ResolutionChoice(Resolution source, long stepMs) {

    static final long[] STEPS = {15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000, 1_800_000, 3_600_000,
        7_200_000, 10_800_000, 21_600_000, 43_200_000, 86_400_000};
    public static final int MAX_POINTS = 11_000;

    public static int maxPoints(String resolution) {
        if (resolution == null || resolution.isBlank() || resolution.equals("high")) {
            return 1000;
        }
        return switch (resolution) {
            case "medium" -> 300;
            case "low" -> 100;
            default -> throw ApiException.invalid("resolution", "field.one-of", "high, medium, low");
        };
    }

    /**
     * @param stepMs the step asked for, or 0 for automatic
     * @param rawFromMs the oldest instant raw samples are kept for; {@code minuteFromMs} the same for 1-min rollups
     */
    public static ResolutionChoice choose(long fromMs, long toMs, long stepMs, int maxPoints, long scrapeMs,
            long rawFromMs, long minuteFromMs) {
        long range = toMs - fromMs;
        long step = stepMs;
        if (step <= 0) {
            long needed = Math.max(scrapeMs, (range + maxPoints - 1) / maxPoints);
            step = STEPS[STEPS.length - 1];
            for (long s : STEPS) {
                if (s >= needed) {
                    step = s;
                    break;
                }
            }
        }
        // The oldest data decides what is still there.
        if (fromMs < minuteFromMs) {
            step = roundUp(step, Resolution.HOUR.bucketMs);
        } else if (fromMs < rawFromMs) {
            step = roundUp(step, Resolution.MINUTE.bucketMs);
        }
        if (range / step > MAX_POINTS) {
            throw ApiException.invalid("step", "metrics.too-many-points", MAX_POINTS);
        }
        Resolution source = step % Resolution.HOUR.bucketMs == 0 ? Resolution.HOUR
                : step % Resolution.MINUTE.bucketMs == 0 ? Resolution.MINUTE : Resolution.RAW;
        return new ResolutionChoice(source, step);
    }

    private static long roundUp(long step, long unit) {
        return Math.max(unit, (step + unit - 1) / unit * unit);
    }
}
