package io.jobmon.metrics.query;

import io.jobmon.metrics.store.codec.Points;
import io.jobmon.metrics.store.codec.Rollups;
import java.util.Arrays;

/**
 * One series' values per step bucket from raw samples or rollups: gauges as the bucket's average (or max/min
 * when the chart aggregates so), counters as the increase within the bucket (resets count from zero) or that
 * increase per second. NaN where the bucket has no data.
 */
public final class Buckets {

    private Buckets() {
    }

    /** The start of the first bucket: {@code fromMs} aligned down to the step. */
    public static long align(long fromMs, long stepMs) {
        return Math.floorDiv(fromMs, stepMs) * stepMs;
    }

    public static int count(long startMs, long toMs, long stepMs) {
        return (int) Math.max(0, (toMs - startMs + stepMs - 1) / stepMs);
    }

    public static double[] ofRaw(Points p, long start, long step, int n, Catalogue.Transform tf, Aggregation agg) {
        double[] out = nan(n);
        if (tf == Catalogue.Transform.VALUE) {
            double[] acc = new double[n];
            int[] cnt = new int[n];
            for (int i = 0; i < p.n; i++) {
                int b = index(p.t[i], start, step, n);
                double x = p.v[i];
                if (b < 0 || Double.isNaN(x)) {
                    continue;
                }
                if (cnt[b] == 0) {
                    acc[b] = x;
                } else if (agg == Aggregation.MAX) {
                    acc[b] = Math.max(acc[b], x);
                } else if (agg == Aggregation.MIN) {
                    acc[b] = Math.min(acc[b], x);
                } else {
                    acc[b] += x;
                }
                cnt[b]++;
            }
            for (int b = 0; b < n; b++) {
                if (cnt[b] > 0) {
                    out[b] = agg == Aggregation.MAX || agg == Aggregation.MIN ? acc[b] : acc[b] / cnt[b];
                }
            }
            return out;
        }
        double prev = Double.NaN;
        for (int i = 0; i < p.n; i++) {
            double x = p.v[i];
            if (Double.isNaN(x)) {
                continue;
            }
            int b = index(p.t[i], start, step, n);
            if (b >= 0 && !Double.isNaN(prev)) {
                double inc = x >= prev ? x - prev : x;
                out[b] = Double.isNaN(out[b]) ? inc : out[b] + inc;
            }
            prev = x;
        }
        return perSecond(out, step, tf);
    }

    public static double[] ofRollups(Rollups r, long start, long step, int n, Catalogue.Transform tf, Aggregation agg) {
        double[] out = nan(n);
        double[] sum = new double[n];
        double[] cnt = new double[n];
        for (int i = 0; i < r.n; i++) {
            int b = index(r.t[i], start, step, n);
            if (b < 0) {
                continue;
            }
            if (tf == Catalogue.Transform.VALUE) {
                if (agg == Aggregation.MAX) {
                    out[b] = Double.isNaN(out[b]) ? r.max[i] : Math.max(out[b], r.max[i]);
                } else if (agg == Aggregation.MIN) {
                    out[b] = Double.isNaN(out[b]) ? r.min[i] : Math.min(out[b], r.min[i]);
                } else {
                    sum[b] += r.sum[i];
                    cnt[b] += r.count[i];
                }
            } else if (!Double.isNaN(r.inc[i])) {
                out[b] = Double.isNaN(out[b]) ? r.inc[i] : out[b] + r.inc[i];
            }
        }
        if (tf == Catalogue.Transform.VALUE) {
            if (agg != Aggregation.MAX && agg != Aggregation.MIN) {
                for (int b = 0; b < n; b++) {
                    if (cnt[b] > 0) {
                        out[b] = sum[b] / cnt[b];
                    }
                }
            }
            return out;
        }
        return perSecond(out, step, tf);
    }

    private static double[] perSecond(double[] inc, long step, Catalogue.Transform tf) {
        if (tf == Catalogue.Transform.RATE) {
            for (int b = 0; b < inc.length; b++) {
                inc[b] = inc[b] / (step / 1000.0);
            }
        }
        return inc;
    }

    static int index(long t, long start, long step, int n) {
        if (t < start) {
            return -1;
        }
        long b = (t - start) / step;
        return b < n ? (int) b : -1;
    }

    static double[] nan(int n) {
        double[] d = new double[n];
        Arrays.fill(d, Double.NaN);
        return d;
    }
}
