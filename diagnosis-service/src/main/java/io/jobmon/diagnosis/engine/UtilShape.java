package io.jobmon.diagnosis.engine;

import java.time.Instant;
import java.util.List;
import java.util.function.DoublePredicate;

/**
 * The shape of one GPU-utilisation series: trailing idle run (hang), trailing 100 % run (a kernel
 * spinning in a stuck collective) and saw-tooth (busy and starved phases alternating, the signature
 * of GPUs waiting on the input pipeline).
 */
final class UtilShape {

    private UtilShape() {
    }

    static MetricReport.Util summarise(String key, EvidenceBundle.Metric m, EngineSettings s) {
        List<EvidenceBundle.Sample> samples = m.samples();
        double scale = isRatio(m) ? 100.0 : 1.0;
        int n = samples.size();
        double sum = 0;
        int state = 0;
        int transitions = 0;
        int firstTransition = -1;
        int lastTransition = -1;
        int high = 0;
        int low = 0;
        for (int i = 0; i < n; i++) {
            double v = samples.get(i).value() * scale;
            sum += v;
            int now = v >= s.sawtoothHigh() ? 1 : v <= s.sawtoothLow() ? -1 : state;
            high += v >= s.sawtoothHigh() ? 1 : 0;
            low += v <= s.sawtoothLow() ? 1 : 0;
            if (state != 0 && now != state) {
                transitions++;
                firstTransition = firstTransition < 0 ? i : firstTransition;
                lastTransition = i;
            }
            state = now;
        }
        int idle = trailing(samples, scale, v -> v <= s.idleUtilPercent());
        int busy = trailing(samples, scale, v -> v >= 99.0);
        boolean sawtooth = transitions >= 8 && lastTransition - firstTransition >= n / 2
                && high >= n / 10 && low >= n / 5;
        Instant idleSince = idle > 0 ? samples.get(n - idle).time() : null;
        Instant busySince = busy > 0 ? samples.get(n - busy).time() : null;
        return new MetricReport.Util(key, m.label("pod"), n, n == 0 ? 0 : sum / n, idleSince, idle, busySince,
                transitions, sawtooth, n == 0 ? null : samples.get(0).time(), n == 0 ? null : samples.get(n - 1).time());
    }

    private static boolean isRatio(EvidenceBundle.Metric m) {
        return m.name().startsWith("DCGM_FI_PROF_");
    }

    private static int trailing(List<EvidenceBundle.Sample> samples, double scale, DoublePredicate test) {
        int run = 0;
        for (int i = samples.size() - 1; i >= 0 && test.test(samples.get(i).value() * scale); i--) {
            run++;
        }
        return run;
    }
}
