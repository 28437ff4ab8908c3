package io.jobmon.events.ingest;

import io.jobmon.contracts.outbox.Outbox;
import io.jobmon.contracts.outbox.OutboxEntry;
import java.util.List;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import io.vertx.mutiny.sqlclient.Pool;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.logging.Logger;

/**
 * Publishes each committed batch's transitions while the consumer applies the next batch. The batch appended them
 * to the outbox already claimed by this instance ({@link StatusOutbox}), so publishing is a send and, once the
 * broker acknowledged, a delete by id: no claim round. Batch n's publishing runs alongside the decoding and the
 * transaction of batch n+1, which waits for it only before handing over its own, so the outbox never holds more
 * than two batches' transitions. What is not acknowledged is released to the relay; a failure never fails stored
 * records.
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

    /** Waits for the previous batch's publishing, then starts this batch's (not awaited). */
    public Uni<Void> handOver(List<OutboxEntry> committed) {
        return Uni.createFrom().completionStage(inFlight).invoke(() -> {
            CompletableFuture<Void> done = new CompletableFuture<>();
            inFlight = done;
            long start = System.nanoTime();
            outbox.publish(committed).subscribe().with(n -> {
                metrics.published(System.nanoTime() - start);
                done.complete(null);
                vacuumAfter(n);
            }, e -> {
                LOG.warnf("publishing transitions failed, the outbox relay will once their claim expires: %s", e);
                done.complete(null);
            });
        }).replaceWithVoid();
    }

    /**
     * The outbox is a queue: every row is inserted and deleted within a second (and updated, when the relay claims it). Autovacuum
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
