package io.jobmon.sim.clock;

import java.time.Duration;
import java.time.Instant;

/**
 * The sim's time and its one thread. Every change of the sim's state runs on that thread: tasks handed over with
 * {@link #execute} and timers. Durations are sim durations: a clock with time scale 10 waits a tenth of them.
 */
public interface SimClock {

    /** The time written into objects, events, logs and samples. */
    Instant now();

    /** Runs the task on the sim's thread after the sim duration. */
    Timer schedule(Duration delay, Runnable task);

    /** Runs the task on the sim's thread, as soon as it is free. */
    void execute(Runnable task);

    /** A scheduled task. */
    interface Timer {
        /** It will not run (if it has not started). */
        void cancel();
    }
}
