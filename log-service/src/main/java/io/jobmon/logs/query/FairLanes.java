package io.jobmon.logs.query;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Fair queuing of search work: a lane (a queue) per user, and a few threads that take the next task from the lanes in
 * turn, so a user's small read waits for at most one task of each thread, never behind another user's hundreds of
 * queued chunks. A lane runs at most {@code perLaneLimit} tasks at once; an idle lane is forgotten.
 */
final class FairLanes {

    private final class Lane extends AbstractExecutorService {
        final String key;
        final ArrayDeque<Runnable> tasks = new ArrayDeque<>();
        int running;
        boolean ready;

        Lane(String key) {
            this.key = key;
        }

        @Override
        public void execute(Runnable task) {
            enqueue(this, task);
        }

        @Override
        public void shutdown() {
        }

        @Override
        public List<Runnable> shutdownNow() {
            return List.of();
        }

        @Override
        public boolean isShutdown() {
            return stopped;
        }

        @Override
        public boolean isTerminated() {
            return stopped;
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) {
            return stopped;
        }
    }

    private final Object lock = new Object();
    private final Map<String, Lane> lanes = new HashMap<>();
    /** Lanes with a task waiting and room to run it, in the order they are served. */
    private final ArrayDeque<Lane> turn = new ArrayDeque<>();
    private final int perLaneLimit;
    private final Thread[] threads;
    private volatile boolean stopped;

    FairLanes(int threads, int perLaneLimit, String name) {
        this.perLaneLimit = Math.max(1, perLaneLimit);
        this.threads = new Thread[threads];
        AtomicInteger n = new AtomicInteger();
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(this::work, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            this.threads[i] = t;
            t.start();
        }
    }

    /** The executor of one lane: what it is given waits in that lane's queue. */
    ExecutorService lane(String key) {
        synchronized (lock) {
            return lanes.computeIfAbsent(key, Lane::new);
        }
    }

    /** Tasks waiting in all lanes. */
    int queued() {
        synchronized (lock) {
            return lanes.values().stream().mapToInt(l -> l.tasks.size()).sum();
        }
    }

    void stop() {
        stopped = true;
        for (Thread t : threads) {
            t.interrupt();
        }
    }

    private void enqueue(Lane lane, Runnable task) {
        synchronized (lock) {
            // a lane forgotten while its executor was held is taken back
            lanes.putIfAbsent(lane.key, lane);
            lane.tasks.add(task);
            offer(lane);
        }
    }

    /** Puts the lane at the end of the turn when it has work and room; wakes a thread. Under the lock. */
    private void offer(Lane lane) {
        if (!lane.ready && !lane.tasks.isEmpty() && lane.running < perLaneLimit) {
            lane.ready = true;
            turn.addLast(lane);
            lock.notify();
        }
    }

    private void work() {
        while (!stopped) {
            Lane lane;
            Runnable task;
            synchronized (lock) {
                while (turn.isEmpty()) {
                    try {
                        lock.wait();
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                lane = turn.pollFirst();
                lane.ready = false;
                task = lane.tasks.poll();
                lane.running++;
                offer(lane); // its next task waits for the other lanes' turns
            }
            try {
                task.run();
            } catch (RuntimeException e) {
                // CompletableFuture tasks complete exceptionally themselves; nothing else is given to this pool
            } finally {
                synchronized (lock) {
                    lane.running--;
                    if (lane.tasks.isEmpty() && lane.running == 0 && !lane.ready) {
                        lanes.remove(lane.key, lane);
                    } else {
                        offer(lane);
                    }
                }
            }
        }
    }
}
