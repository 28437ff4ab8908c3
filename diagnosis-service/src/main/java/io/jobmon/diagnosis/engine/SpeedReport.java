package io.jobmon.diagnosis.engine;

import java.time.Duration;
import java.time.Instant;

/**
 * What the progress lines say about speed and liveness. Rates are steps per second computed from
 * successive (step, elapsed-or-time) pairs, never from the printed running average. Unknown numbers
 * are {@code NaN}, unknown times {@code null}.
 *
 * @param lastActivity    time of the last progress line of any kind
 * @param lastAdvance     time the step counter last moved (or a loss line was logged)
 * @param firstPoint      first point of the main training series
 * @param lastPoint       last point of the main training series
 * @param pairs           number of (step, time) pairs the rates come from
 * @param baselineRate    median real speed over the first third of the pairs
 * @param recentRate      median real speed over the last quarter of the pairs
 * @param printedRate     the rate the last line printed (tqdm's average since the bar started)
 * @param typicalInterval median time between progress lines
 * @param stepSeconds     seconds per step at the recent speed
 * @param slowdown        the recent real speed fell below the configured fraction of the baseline
 * @param slowSince       when the slow period began
 * @param resumed         the bar started mid-way (resume from checkpoint): printed averages are misleading
 * @param dataWaitRatio   median share of iteration time spent waiting for data
 */
record SpeedReport(Instant lastActivity, Instant lastAdvance, ProgressPoint firstPoint, ProgressPoint lastPoint,
                   int pairs, double baselineRate, double recentRate, double printedRate, Duration typicalInterval,
                   double stepSeconds, boolean slowdown, Instant slowSince, boolean resumed, double dataWaitRatio) {

    static SpeedReport none() {
        return new SpeedReport(null, null, null, null, 0, Double.NaN, Double.NaN, Double.NaN, null, Double.NaN,
                false, null, false, Double.NaN);
    }

    boolean hasProgress() {
        return lastActivity != null;
    }

    boolean hasRates() {
        return pairs > 0 && !Double.isNaN(recentRate);
    }

    /** The recent speed is within 30 % of the baseline. */
    boolean steady() {
        return hasRates() && !slowdown && !Double.isNaN(baselineRate)
                && recentRate >= 0.7 * baselineRate && recentRate <= 1.43 * baselineRate;
    }
}
