package io.jobmon.metrics.query;

import java.time.Instant;
import java.util.AbstractList;
import java.util.Arrays;

/**
 * A chart line's points as two arrays (times in ms, values), built straight from the buckets: {@link PointsJson}
 * writes them without an {@code Object[]}, {@link Instant} and boxed {@code Double} per point. Read as a list, a
 * point is {@code [Instant, Double]}, as before.
 */
public final class LinePoints extends AbstractList<Object[]> {

    private long[] t;
    private double[] v;
    private int n;

    public LinePoints(int capacity) {
        t = new long[Math.max(1, capacity)];
        v = new double[t.length];
    }

    public void add(long timeMs, double value) {
        if (n == t.length) {
            t = Arrays.copyOf(t, n * 2);
            v = Arrays.copyOf(v, n * 2);
        }
        t[n] = timeMs;
        v[n++] = value;
    }

    public long time(int i) {
        return t[i];
    }

    public double value(int i) {
        return v[i];
    }

    @Override
    public Object[] get(int i) {
        if (i < 0 || i >= n) {
            throw new IndexOutOfBoundsException(i);
        }
        return new Object[] {Instant.ofEpochMilli(t[i]), v[i]};
    }

    @Override
    public int size() {
        return n;
    }
}
