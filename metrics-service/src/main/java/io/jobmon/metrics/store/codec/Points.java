package io.jobmon.metrics.store.codec;

import java.util.Arrays;

/** The samples of one series: parallel arrays of epoch milliseconds and values, growing. */
public final class Points {

    public long[] t;
    public double[] v;
    public int n;

    public Points(int capacity) {
        t = new long[Math.max(4, capacity)];
        v = new double[t.length];
    }

    public void add(long time, double value) {
        if (n == t.length) {
            t = Arrays.copyOf(t, n * 2);
            v = Arrays.copyOf(v, n * 2);
        }
        t[n] = time;
        v[n] = value;
        n++;
    }

    public void addAll(Points o) {
        for (int i = 0; i < o.n; i++) {
            add(o.t[i], o.v[i]);
        }
    }

    public boolean isSorted() {
        for (int i = 1; i < n; i++) {
            if (t[i] <= t[i - 1]) {
                return false;
            }
        }
        return true;
    }

    /** Sorts by time and keeps one sample per timestamp (the last added wins). */
    public Points normalize() {
        if (isSorted()) {
            return this;
        }
        Integer[] idx = new Integer[n];
        for (int i = 0; i < n; i++) {
            idx[i] = i;
        }
        // stable: equal times keep their order, so the last added stays last
        Arrays.sort(idx, (a, b) -> Long.compare(t[a], t[b]));
        Points out = new Points(n);
        for (int k = 0; k < n; k++) {
            int i = idx[k];
            if (out.n > 0 && out.t[out.n - 1] == t[i]) {
                out.v[out.n - 1] = v[i];
            } else {
                out.add(t[i], v[i]);
            }
        }
        return out;
    }

    /** The samples with from <= t < to. */
    public Points slice(long from, long to) {
        Points out = new Points(n);
        for (int i = 0; i < n; i++) {
            if (t[i] >= from && t[i] < to) {
                out.add(t[i], v[i]);
            }
        }
        return out;
    }

    /** Bytes held (for a cache's weight). */
    public long bytes() {
        return 48L + t.length * 16L;
    }

    public long first() {
        return t[0];
    }

    public long last() {
        return t[n - 1];
    }
}
