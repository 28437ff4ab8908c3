package io.jobmon.metrics.alerts;

import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import org.jboss.logging.Logger;

/** Forgets alerts that ended more than {@code jobmon.alerts.retention-days} ago (every replica; a delete is idempotent). */
@ApplicationScoped
public class AlertRetention {

    private static final Logger LOG = Logger.getLogger(AlertRetention.class);

    private final AlertHistoryRepository history;
    private final AlertsConfig config;

    public AlertRetention(AlertHistoryRepository history, AlertsConfig config) {
        this.history = history;
        this.config = config;
    }

    @Scheduled(every = "1h", delay = 5, delayUnit = java.util.concurrent.TimeUnit.MINUTES,
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> run() {
        return apply(Instant.now()).onFailure().invoke(e -> LOG.warnf("alert retention: %s", e.getMessage()))
                .onFailure().recoverWithNull().replaceWithVoid();
    }

    /** Deletes what is older than the retention at {@code now}; how many alerts. */
    public Uni<Integer> apply(Instant now) {
        return history.deleteOlderThan(now.minus(Duration.ofDays(config.retentionDays())));
    }
}
