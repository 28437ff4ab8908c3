package io.jobmon.diagnosis.engine;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Computes the real training speed from successive progress points: steps done between two lines
 * over the time between them (the bar's own elapsed clock when it has one, the log time otherwise).
 * This is immune to the resume-from-checkpoint trap, where tqdm's printed average keeps falling
 * because the step counter starts at the checkpoint while the elapsed clock starts at zero.
 */
final class SpeedAnalysis {

    private static final double MIN_PAIR_SECONDS = 0.5;

    private SpeedAnalysis() {
    }

    static SpeedReport analyze(List<ProgressPoint> points, double slowdownRatio, boolean resumeMarker) {
        if (points.isEmpty()) {
            return SpeedReport.none();
        }
        Map<String, List<ProgressPoint>> series = split(inTimeOrder(points));
        Instant lastActivity = null;
        Instant lastAdvance = null;
        for (List<ProgressPoint> s : series.values()) {
            double prev = Double.NaN;
            for (ProgressPoint p : s) {
                lastActivity = JobContext.max(lastActivity, p.time());
                if (p.liveness() || Double.isNaN(prev) || p.step() > prev) {
                    lastAdvance = JobContext.max(lastAdvance, p.time());
                }
                prev = p.step();
            }
        }
        List<ProgressPoint> main = mainSeries(series);
        if (main == null) {
            return new SpeedReport(lastActivity, lastAdvance, null, null, 0, Double.NaN, Double.NaN, Double.NaN,
                    interval(firstNonEmpty(series)), Double.NaN, false, null, resumeMarker, Double.NaN);
        }
        List<double[]> rates = rates(main);
        double[] r = rates.stream().mapToDouble(x -> x[1]).toArray();
        int n = r.length;
        double baseline = median(Arrays.copyOfRange(r, 0, Math.min(n, Math.max(2, n / 3))));
        double recent = median(Arrays.copyOfRange(r, n - Math.min(n, Math.max(2, n / 4)), n));
        boolean slow = false;
        Instant slowSince = null;
        if (n >= 6 && baseline > 0 && recent < slowdownRatio * baseline && recentSpan(rates, n) >= 180) {
            slow = true;
            int k = n - 1;
            while (k > 0 && rates.get(k - 1)[1] < (slowdownRatio + 0.1) * baseline) {
                k--;
            }
            slowSince = Instant.ofEpochMilli((long) rates.get(k)[2]);
        }
        ProgressPoint first = main.get(0);
        ProgressPoint last = main.get(main.size() - 1);
        double stepSeconds = recent > 0 ? 1.0 / recent : medianIterSeconds(main);
        double rateRef = median(r);
        boolean resumed = resumeMarker || (!Double.isNaN(first.elapsed()) && first.elapsed() > 0 && rateRef > 0
                && first.step() / first.elapsed() > 2.0 * rateRef && first.step() > 10);
        return new SpeedReport(lastActivity, lastAdvance, first, last, n, baseline, recent, last.printedRate(),
                interval(main), stepSeconds, slow, slowSince, resumed, dataWait(main));
    }

    /** Groups points by series key and starts a new series whenever the step counter goes back. */
    /**
     * The points in time order: log sources may interleave or reorder lines of several pods. Stable, and only
     * sorted when some timed point is out of order (the usual input is already ordered).
     */
    static List<ProgressPoint> inTimeOrder(List<ProgressPoint> points) {
        Instant prev = null;
        boolean ordered = true;
        for (ProgressPoint p : points) {
            if (p.time() == null) {
                return points;
            }
            if (prev != null && p.time().isBefore(prev)) {
                ordered = false;
            }
            prev = p.time();
        }
        if (ordered) {
            return points;
        }
        List<ProgressPoint> sorted = new ArrayList<>(points);
        sorted.sort(Comparator.comparing(ProgressPoint::time));
        return sorted;
    }

    private static Map<String, List<ProgressPoint>> split(List<ProgressPoint> points) {
        Map<String, List<ProgressPoint>> out = new LinkedHashMap<>();
        Map<String, String> current = new HashMap<>();
        Map<String, Integer> generation = new HashMap<>();
        for (ProgressPoint p : points) {
            String key = current.getOrDefault(p.series(), p.series());
            List<ProgressPoint> list = out.get(key);
            if (list != null && !p.liveness() && p.step() < list.get(list.size() - 1).step()) {
                int g = generation.merge(p.series(), 1, Integer::sum);
                key = p.series() + "#" + g;
                current.put(p.series(), key);
                list = null;
            }
            if (list == null) {
                list = new ArrayList<>();
                out.put(key, list);
            }
            list.add(p);
        }
        return out;
    }

    /** The training series with the most points among those still printing near the end. */
    private static List<ProgressPoint> mainSeries(Map<String, List<ProgressPoint>> series) {
        Instant latest = null;
        for (List<ProgressPoint> s : series.values()) {
            if (isTraining(s)) {
                latest = JobContext.max(latest, s.get(s.size() - 1).time());
            }
        }
        List<ProgressPoint> best = null;
        for (List<ProgressPoint> s : series.values()) {
            if (!isTraining(s) || s.size() < 2) {
                continue;
            }
            Instant end = s.get(s.size() - 1).time();
            Instant start = s.get(0).time();
            boolean recentEnough = latest == null || end == null || start == null
                    || !end.isBefore(latest.minus(Duration.between(start, latest).dividedBy(4)));
            if (recentEnough && (best == null || s.size() > best.size())) {
                best = s;
            }
        }
        return best;
    }

    private static boolean isTraining(List<ProgressPoint> s) {
        return !s.get(0).liveness() && s.get(0).training();
    }

    /** Pairs as {@code [dt seconds, rate, end epoch millis]}. */
    private static List<double[]> rates(List<ProgressPoint> s) {
        List<double[]> out = new ArrayList<>();
        for (int i = 1; i < s.size(); i++) {
            ProgressPoint a = s.get(i - 1);
            ProgressPoint b = s.get(i);
            double steps = b.step() - a.step();
            if (steps <= 0) {
                continue;
            }
            double dt = Double.NaN;
            if (!Double.isNaN(a.elapsed()) && !Double.isNaN(b.elapsed()) && b.elapsed() > a.elapsed()) {
                dt = b.elapsed() - a.elapsed();
            } else if (a.time() != null && b.time() != null && b.time().isAfter(a.time())) {
                dt = Duration.between(a.time(), b.time()).toMillis() / 1000.0;
            }
            if (dt >= MIN_PAIR_SECONDS) {
                out.add(new double[] {dt, steps / dt, b.time() == null ? 0 : b.time().toEpochMilli()});
            }
        }
        if (out.isEmpty()) {
            for (ProgressPoint p : s) {
                if (p.iterSeconds() > 0) {
                    out.add(new double[] {p.iterSeconds(), 1.0 / p.iterSeconds(),
                        p.time() == null ? 0 : p.time().toEpochMilli()});
                }
            }
        }
        return out;
    }

    private static double recentSpan(List<double[]> rates, int n) {
        double sum = 0;
        for (int i = n - Math.max(2, n / 4); i < n; i++) {
            sum += rates.get(i)[0];
        }
        return sum;
    }

    private static Duration interval(List<ProgressPoint> s) {
        if (s == null) {
            return null;
        }
        List<Double> gaps = new ArrayList<>();
        for (int i = 1; i < s.size(); i++) {
            Instant a = s.get(i - 1).time();
            Instant b = s.get(i).time();
            if (a != null && b != null && b.isAfter(a)) {
                gaps.add(Duration.between(a, b).toMillis() / 1000.0);
            }
        }
        if (gaps.isEmpty()) {
            return null;
        }
        return Duration.ofMillis((long) (median(gaps.stream().mapToDouble(Double::doubleValue).toArray()) * 1000));
    }

    private static List<ProgressPoint> firstNonEmpty(Map<String, List<ProgressPoint>> series) {
        return series.values().stream().max((a, b) -> Integer.compare(a.size(), b.size())).orElse(null);
    }

    private static double dataWait(List<ProgressPoint> s) {
        double[] ratios = s.stream().filter(p -> p.iterSeconds() > 0 && p.dataSeconds() >= 0)
                .mapToDouble(p -> p.dataSeconds() / p.iterSeconds()).toArray();
        return ratios.length == 0 ? Double.NaN : median(ratios);
    }

    private static double medianIterSeconds(List<ProgressPoint> s) {
        double[] v = s.stream().mapToDouble(ProgressPoint::iterSeconds).filter(x -> !Double.isNaN(x)).toArray();
        return v.length == 0 ? Double.NaN : median(v);
    }

    static double median(double[] v) {
        if (v.length == 0) {
            return Double.NaN;
        }
        double[] c = v.clone();
        Arrays.sort(c);
        int m = c.length / 2;
        return c.length % 2 == 1 ? c[m] : (c[m - 1] + c[m]) / 2.0;
    }
}
