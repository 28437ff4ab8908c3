package io.jobmon.diagnosis.engine;

import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * Thresholds of the engine. Defaults come from the catalogue's {@code settings} section; code can
 * override them with {@link DiagnosisEngine#DiagnosisEngine(PatternCatalogue, EngineSettings)}.
 *
 * @param hangThreshold    no progress for this long (with idle GPUs) is a hang; default 10 minutes
 * @param idleUtilPercent  GPU utilisation at or below this is idle
 * @param slowdownRatio    recent real speed below this fraction of the baseline is a slowdown
 * @param maxEvidence      evidence items quoted per diagnosis
 * @param sawtoothHigh     utilisation at or above this counts as busy for the saw-tooth test
 * @param sawtoothLow      utilisation at or below this counts as starved for the saw-tooth test
 * @param thermalTempC     GPU temperature considered hot
 * @param xidHardware      Xid codes that mean a hardware fault
 * @param xidApplication   Xid codes that usually come from the application
 */
public record EngineSettings(Duration hangThreshold, double idleUtilPercent, double slowdownRatio,
                             int maxEvidence, double sawtoothHigh, double sawtoothLow, double thermalTempC,
                             Set<Integer> xidHardware, Set<Integer> xidApplication) {

    public EngineSettings {
        Objects.requireNonNull(hangThreshold, "hangThreshold");
        if (hangThreshold.isNegative() || hangThreshold.isZero()) {
            throw new IllegalArgumentException("hangThreshold must be positive");
        }
        if (maxEvidence < 1) {
            throw new IllegalArgumentException("maxEvidence must be >= 1");
        }
        xidHardware = Set.copyOf(xidHardware);
        xidApplication = Set.copyOf(xidApplication);
    }

    /** Built-in defaults (the same values as the shipped catalogue). */
    public static EngineSettings defaults() {
        return new EngineSettings(Duration.ofMinutes(10), 5.0, 0.7, 5, 70.0, 20.0, 87.0,
                Set.of(48, 61, 62, 63, 64, 74, 79, 92, 94, 95, 119, 120, 121, 140),
                Set.of(13, 31, 43, 45));
    }

    /** A copy with another hang threshold. */
    public EngineSettings withHangThreshold(Duration threshold) {
        return new EngineSettings(threshold, idleUtilPercent, slowdownRatio, maxEvidence, sawtoothHigh,
                sawtoothLow, thermalTempC, xidHardware, xidApplication);
    }
}
