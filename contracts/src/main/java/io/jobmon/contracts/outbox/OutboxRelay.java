package io.jobmon.contracts.outbox;

import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * Runs the outbox's relay rounds on every instance of a service that has one ({@code jobmon.outbox.enabled}):
 * every {@code jobmon.outbox.interval} (default 0.5 s), and the backlog gauges every 5 s. A round that fails
 * (database or broker away) is logged and tried again next time; nothing waits on a scheduler thread.
 */
@ApplicationScoped
public class OutboxRelay {

    private static final Logger LOG = Logger.getLogger(OutboxRelay.class);
    private static final long MEASURE_EVERY_MS = 5000;

    private final Outbox outbox;
    private final OutboxConfig config;
    private final AtomicBoolean paused = new AtomicBoolean();
    private final AtomicLong lastMeasured = new AtomicLong();

    public OutboxRelay(Outbox outbox, OutboxConfig config) {
        this.outbox = outbox;
        this.config = config;
    }

    @Scheduled(every = "${jobmon.outbox.interval:0.5s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> tick() {
        if (!config.enabled() || paused.get()) {
            return Uni.createFrom().voidItem();
        }
        long now = System.currentTimeMillis();
        Uni<Void> measure = now - lastMeasured.get() >= MEASURE_EVERY_MS
                ? outbox.measure().invoke(() -> lastMeasured.set(now)) : Uni.createFrom().voidItem();
        return outbox.drain().replaceWithVoid().chain(() -> measure)
                .onFailure().invoke(e -> LOG.warnf("outbox round failed, retried next round: %s", e.getMessage()))
                .onFailure().recoverWithNull();
    }

    /** Stops the rounds (tests; an operator draining an instance): records wait in the table. */
    public void pause() {
        paused.set(true);
    }

    public void resume() {
        paused.set(false);
    }
}
