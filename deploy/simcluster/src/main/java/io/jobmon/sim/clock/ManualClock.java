package io.jobmon.sim.clock;

import java.time.Duration;
import java.time.Instant;
import java.util.PriorityQueue;

/**
 * A clock for tests: time moves only when told, and due tasks run in the caller's thread in time order
 * (ties in the order they were scheduled). {@link #execute} tasks run at the next {@link #advance} or {@link #runDue}.
 */
public final class ManualClock implements SimClock {

    private record Task(Instant due, long seq, Runnable run, boolean[] cancelled) {
    }

    private final PriorityQueue<Task> tasks = new PriorityQueue<>((a, b) -> a.due.equals(b.due)
            ? Long.compare(a.seq, b.seq) : a.due.compareTo(b.due));
    private Instant now;
    private long seq;

    public ManualClock(Instant start) {
        this.now = start;
    }

    @Override
    public Instant now() {
        return now;
    }

    @Override
    public Timer schedule(Duration delay, Runnable task) {
        boolean[] cancelled = {false};
        tasks.add(new Task(now.plus(delay.isNegative() ? Duration.ZERO : delay), seq++, task, cancelled));
        return () -> cancelled[0] = true;
    }

    @Override
    public void execute(Runnable task) {
        schedule(Duration.ZERO, task);
    }

    /** Runs every task due by now + d, moving the time to each task's due time, then to now + d. */
    public void advance(Duration d) {
        Instant until = now.plus(d);
        while (!tasks.isEmpty() && !tasks.peek().due.isAfter(until)) {
            Task t = tasks.poll();
            now = t.due;
            if (!t.cancelled[0]) {
                t.run.run();
            }
        }
        now = until;
    }

    /** Runs what is due now. */
    public void runDue() {
        advance(Duration.ZERO);
    }

    /** How many tasks wait (cancelled ones included until their time). */
    public int pending() {
        return tasks.size();
    }
}
