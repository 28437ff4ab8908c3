package io.jobmon.sim.cluster;

import java.time.Duration;
import java.time.Instant;

/** A monotonic counter that grows at a rate which changes from time to time (CPU seconds, bytes sent). */
public final class Counter {

    private double total;
    private double perSecond;
    private Instant since;

    public Counter(double start, double perSecond, Instant since) {
        this.total = start;
        this.perSecond = perSecond;
        this.since = since;
    }

    public synchronized void rate(double newPerSecond, Instant at) {
        total = total(at);
        since = at.isAfter(since) ? at : since;
        perSecond = Math.max(0, newPerSecond);
    }

    public synchronized double total(Instant at) {
        double seconds = Math.max(0, Duration.between(since, at).toNanos() / 1e9);
        return total + perSecond * seconds;
    }
}
