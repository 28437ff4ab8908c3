package io.jobmon.events.ingest;

import io.jobmon.events.config.EventsConfig;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

/** Publishes transitions left in the outbox by a publisher that died between commit and send. */
@ApplicationScoped
public class OutboxSweeper {

    private static final Logger LOG = Logger.getLogger(OutboxSweeper.class);

    private final OutboxRepository outbox;
    private final StatusPublisher publisher;
    private final EventsConfig config;

    public OutboxSweeper(OutboxRepository outbox, StatusPublisher publisher, EventsConfig config) {
        this.outbox = outbox;
        this.publisher = publisher;
        this.config = config;
    }

    @Scheduled(every = "${jobmon.events.outbox-sweep-every:5s}", delayed = "5s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> sweep() {
        return outbox.pool().withTransaction(conn -> outbox.stale(conn, config.outboxSweepAfterSeconds(), 500)
                .call(pending -> publisher.send(pending))
                .call(pending -> outbox.remove(conn, pending))
                .invoke(pending -> {
                    if (!pending.isEmpty()) {
                        LOG.infof("published %d transitions left in the outbox", pending.size());
                    }
                }))
                .onFailure().invoke(e -> LOG.warnf("outbox sweep failed: %s", e.getMessage()))
                .onFailure().recoverWithNull().replaceWithVoid();
    }
}
