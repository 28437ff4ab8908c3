package io.jobmon.sim.clock;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wall-clock time, one daemon thread, timers shortened by the time scale. A task that throws is logged and the
 * thread goes on. Idle, the thread sleeps until the next timer: no polling.
 */
public final class LoopClock implements SimClock, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LoopClock.class);

    private final double scale;
    private final ScheduledExecutorService loop;

    /** @param scale sim seconds per wall second (1: real time) */
    public LoopClock(double scale) {
        if (!(scale > 0)) {
            throw new IllegalArgumentException("time scale must be > 0: " + scale);
        }
        this.scale = scale;
        this.loop = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sim-loop");
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public Instant now() {
        return Instant.now();
    }

    @Override
    public Timer schedule(Duration delay, Runnable task) {
        long nanos = (long) (Math.max(0, delay.toNanos()) / scale);
        var future = loop.schedule(guarded(task), nanos, TimeUnit.NANOSECONDS);
        return () -> future.cancel(false);
    }

    @Override
    public void execute(Runnable task) {
        loop.execute(guarded(task));
    }

    /** Runs the task on the sim's thread and waits for it (for callers outside the thread: start-up, tests). */
    public <T> T call(java.util.concurrent.Callable<T> task) {
        try {
            return loop.submit(task).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        }
    }

    private static Runnable guarded(Runnable task) {
        return () -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                LOG.warn("sim task failed: {}", e.toString(), e);
            }
        };
    }

    @Override
    public void close() {
        loop.shutdownNow();
    }
}
