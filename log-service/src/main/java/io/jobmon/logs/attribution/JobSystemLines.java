package io.jobmon.logs.attribution;

import java.util.function.Supplier;

/**
 * A job's view of its nodes' system lines: each line's {@link Attribution}, or null when the line is not the job's.
 * Built when a read starts (identities may arrive after the lines, so nothing is decided at ingest); a follow, which
 * lasts, reloads it every {@code refresh} (new containers, holdings, OOM events). Thread-safe.
 */
public final class JobSystemLines {

    private final Supplier<SystemLineAttribution> loader;
    private final long refreshNanos;
    private volatile SystemLineAttribution current;
    private volatile long loadedAt;

    public JobSystemLines(Supplier<SystemLineAttribution> loader, long refreshNanos) {
        this.loader = loader;
        this.refreshNanos = refreshNanos;
        this.current = loader.get();
        this.loadedAt = System.nanoTime();
    }

    /** A fixed view (tests). */
    public static JobSystemLines of(SystemLineAttribution a) {
        return new JobSystemLines(() -> a, Long.MAX_VALUE);
    }

    public Attribution attribute(String node, String source, long time, String text) {
        return current.attribute(node, source, time, text);
    }

    /** Loads the view again when it is older than {@code refresh} (a follow calls it before each poll; blocking). */
    public void refreshIfStale() {
        if (System.nanoTime() - loadedAt >= refreshNanos) {
            current = loader.get();
            loadedAt = System.nanoTime();
        }
    }
}
