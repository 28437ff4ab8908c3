package io.jobmon.logs.query;

import io.jobmon.contracts.access.Caller;
import io.jobmon.logs.config.LogsConfig;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The threads that decompress and search chunks for queries (CPU work, off the event loop), shared fairly: each user's
 * work waits in a queue of its own and the queues are served in turn ({@link FairLanes}), so one user's heavy searches
 * (downloads, counts with slow regexes) do not delay another user's small read: a user holds at most
 * {@code query.search-threads} threads, and the pool has one more.
 */
@ApplicationScoped
public class SearchPool {

    /** The lane of background work (compaction) and of callers without a user. */
    static final String SYSTEM = "system/";

    private final FairLanes lanes;
    private final Map<String, Semaphore> running = new ConcurrentHashMap<>();
    private final int perUserSearches;
    private final long waitMillis;

    public SearchPool(LogsConfig config) {
        this.perUserSearches = config.query().perUserSearches();
        this.waitMillis = config.query().searchDeadline().toMillis();
        int perUser = config.query().searchThreads();
        // one thread more than a user may hold: a heavy user's chunks never make another user's read wait for them
        this.lanes = new FairLanes(perUser + 1, perUser, "log-search");
    }

    /** The executor for {@code caller}'s search work: their own queue. */
    public ExecutorService executor(Caller caller) {
        return caller == null || caller.user() == null ? executor() : lanes.lane(caller.tenant() + "/" + caller.user());
    }

    /**
     * Runs one search (a page of lines, a count, a download's page, a follow's tail) of {@code caller}'s once fewer
     * than {@code query.per-user-searches} of theirs run: a user's many heavy requests wait for each other, not the
     * database connections and threads every user shares. Waiting longer than {@code query.search-deadline} is the
     * search-timeout problem (422).
     */
    public <T> T run(Caller caller, Supplier<T> search) {
        return run(caller, waitMillis, search);
    }

    /** As {@link #run(Caller, Supplier)}, waiting at most {@code waitMillis} for the turn (a download's page: longer). */
    public <T> T run(Caller caller, long waitMillis, Supplier<T> search) {
        String key = caller == null || caller.user() == null ? SYSTEM : caller.tenant() + "/" + caller.user();
        Semaphore permits = running.computeIfAbsent(key, k -> new Semaphore(perUserSearches, true));
        try {
            if (!permits.tryAcquire(waitMillis, TimeUnit.MILLISECONDS)) {
                throw LineMatcher.tooSlow(waitMillis);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw LineMatcher.tooSlow(waitMillis);
        }
        try {
            return search.get();
        } finally {
            permits.release();
        }
    }

    /** The executor for work of no user (compaction). */
    public ExecutorService executor() {
        return lanes.lane(SYSTEM);
    }

    /** Tasks waiting (for tests and metrics). */
    public int queued() {
        return lanes.queued();
    }

    @PreDestroy
    void stop() {
        lanes.stop();
    }
}
