package io.jobmon.events.ingest;

import io.jobmon.contracts.outbox.Outbox;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import io.vertx.mutiny.sqlclient.Pool;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.logging.Logger;

/**
 * Publishes each committed batch's transitions from the outbox while the consumer applies the next batch: the
 * drain started after batch n runs alongside the decoding and the transaction of batch n+1, which waits for it
 * only before starting its own. So the consumer no longer waits for a whole drain (claim, send, acknowledgements,
 * delete) per batch, and the outbox never holds more than two batches' transitions: its claim, which grows with
 * the rows waiting, stays short. A failed drain is the relay's to repeat; it never fails stored records.
 *
 * <p>Called by one consumer, one batch after the other.
 */
@ApplicationScoped
public class StatusPublisher {

    private static final Logger LOG = Logger.getLogger(StatusPublisher.class);

    /** Rows published (so deleted) from the outbox before it is vacuumed again. */
    static final int VACUUM_AFTER = 2000;

    private final Outbox outbox;
    private final IngestMetrics metrics;
    private final Pool pool;
    private volatile CompletableFuture<Void> inFlight = CompletableFuture.completedFuture(null);
    private final AtomicInteger sinceVacuum = new AtomicInteger();
    private final AtomicBoolean vacuuming = new AtomicBoolean();

    public StatusPublisher(Outbox outbox, IngestMetrics metrics, Pool pool) {
        this.outbox = outbox;
        this.metrics = metrics;
        this.pool = pool;
    }

    /** Waits for the previous batch's drain, then starts one for what this batch committed (not awaited). */
    public Uni<Void> handOver() {
        return Uni.createFrom().completionStage(inFlight).invoke(() -> {
            CompletableFuture<Void> done = new CompletableFuture<>();
            inFlight = done;
            long start = System.nanoTime();
            outbox.drain().subscribe().with(n -> {
                metrics.published(System.nanoTime() - start);
                done.complete(null);
                vacuumAfter(n);
            }, e -> {
                LOG.warnf("publishing transitions failed, the outbox relay will: %s", e);
                done.complete(null);
            });
        }).replaceWithVoid();
    }

    /**
     * The outbox is a queue: every row is inserted, updated by its claim and deleted within a second. Autovacuum
     * visits it once a minute at best; in between its dead rows pile up (tens of thousands at full speed) and the
     * claim's plan walks them all for every row it claims: 8 to 26 s per claim in the benchmark, the consumer
     * waiting. So the publisher vacuums it itself after every {@value #VACUUM_AFTER} rows published, one vacuum
     * at a time, not waiting for it (it blocks no writer).
     */
    private void vacuumAfter(int published) {
        if (sinceVacuum.addAndGet(published) < VACUUM_AFTER || !vacuuming.compareAndSet(false, true)) {
            return;
        }
        sinceVacuum.set(0);
        pool.query("VACUUM (ANALYZE) outbox").execute().subscribe().with(rows -> vacuuming.set(false), e -> {
            LOG.debugf("vacuuming the outbox failed (autovacuum will): %s", e);
            vacuuming.set(false);
        });
    }
}
