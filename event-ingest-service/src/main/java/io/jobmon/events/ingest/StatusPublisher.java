package io.jobmon.events.ingest;

import io.jobmon.contracts.outbox.Outbox;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * Publishes committed transitions from the outbox right after their batch, without holding the next batch: a
 * request starts a drain of the outbox unless one is running, and a request made while one runs starts one more
 * when it ends (so the last batch's transitions are never left to the relay's next tick). At most one drain of
 * this consumer runs at a time; the outbox keeps each key's order and the relay sends whatever a failed drain left.
 *
 * <p>Before, the consumer waited for the drain (claim, send, acknowledgements, delete) before taking the next
 * batch: on a busy machine that wait was most of a batch's time (benchmark, docs/event-ingest.md).
 */
@ApplicationScoped
public class StatusPublisher {

    private static final Logger LOG = Logger.getLogger(StatusPublisher.class);

    private final Outbox outbox;
    private final IngestMetrics metrics;
    private final AtomicBoolean running = new AtomicBoolean();
    private final AtomicBoolean requested = new AtomicBoolean();

    public StatusPublisher(Outbox outbox, IngestMetrics metrics) {
        this.outbox = outbox;
        this.metrics = metrics;
    }

    /** Asks for a drain: now, or right after the one running. */
    public void request() {
        requested.set(true);
        if (running.compareAndSet(false, true)) {
            drain();
        }
    }

    private void drain() {
        requested.set(false);
        long start = System.nanoTime();
        outbox.drain().subscribe().with(n -> done(start), e -> {
            LOG.warnf("publishing transitions failed, the outbox relay will: %s", e);
            done(start);
        });
    }

    private void done(long start) {
        metrics.published(System.nanoTime() - start);
        if (requested.get()) {
            drain();
            return;
        }
        running.set(false);
        // A request between the check above and now found a drain running: start it here.
        if (requested.get() && running.compareAndSet(false, true)) {
            drain();
        }
    }

    /** A drain is under way (tests). */
    boolean busy() {
        return running.get();
    }
}
