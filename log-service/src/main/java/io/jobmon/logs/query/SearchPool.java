package io.jobmon.logs.query;

import io.jobmon.logs.config.LogsConfig;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/** The threads that decompress and search chunks for queries (CPU work, off the event loop). */
@ApplicationScoped
public class SearchPool {

    private final ExecutorService executor;

    public SearchPool(LogsConfig config) {
        AtomicInteger n = new AtomicInteger();
        this.executor = Executors.newFixedThreadPool(config.query().searchThreads(), r -> {
            Thread t = new Thread(r, "log-search-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    public ExecutorService executor() {
        return executor;
    }

    @PreDestroy
    void stop() {
        executor.shutdownNow();
    }
}
