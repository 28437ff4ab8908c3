package io.jobmon.metrics.query;

import io.jobmon.metrics.store.codec.Points;
import java.time.Instant;
import java.util.AbstractList;

/**
 * A chart line's points as the store's arrays ({@link Points}: times in ms, values), built straight from the buckets:
 * {@link PointsJson} writes them without an {@code Object[]}, {@link Instant} and boxed {@code Double} per point.
 * Read as a list, a point is {@code [Instant, Double]}, as before.
 */
public final class LinePoints extends AbstractList<Object[]> {

    private final Points points;

    public LinePoints(int capacity) {
        points = new Points(capacity);
    }

    public void add(long timeMs, double value) {
        points.add(timeMs, value);
    }

    public long time(int i) {
        return points.t[i];
    }

    public double value(int i) {
        return points.v[i];
    }

    @Override
    public Object[] get(int i) {
        if (i < 0 || i >= points.n) {
            throw new IndexOutOfBoundsException(i);
        }
        return new Object[] {Instant.ofEpochMilli(points.t[i]), points.v[i]};
    }

    @Override
    public int size() {
        return points.n;
    }
}
