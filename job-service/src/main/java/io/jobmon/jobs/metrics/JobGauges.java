package io.jobmon.jobs.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * {@code jobmon_jobs{status, cluster, queue}}: live (non-final) jobs, counted from the database so that every
 * instance reports the same truth. (The outbox's backlog gauges come with the shared outbox.)
 */
@ApplicationScoped
public class JobGauges {

    private static final Logger LOG = Logger.getLogger(JobGauges.class);

    private final Pool pool;
    private final MultiGauge jobs;

    public JobGauges(Pool pool, MeterRegistry registry) {
        this.pool = pool;
        this.jobs = MultiGauge.builder("jobmon.jobs").description("live jobs by status, cluster and queue")
                .register(registry);
    }

    @Scheduled(every = "${jobmon.metrics.refresh:15s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    public Uni<Void> refresh() {
        return pool.query("SELECT status, cluster, queue, count(*) AS n FROM job "
                + "WHERE status NOT IN ('SUCCEEDED', 'FAILED', 'STOPPED') GROUP BY 1, 2, 3").execute()
                .invoke(result -> {
                    List<MultiGauge.Row<?>> rows = new ArrayList<>();
                    result.forEach(r -> rows.add(MultiGauge.Row.of(Tags.of("status", r.getString("status"),
                            "cluster", r.getString("cluster"), "queue", r.getString("queue")), r.getLong("n"))));
                    jobs.register(rows, true);
                })
                .replaceWithVoid()
                .onFailure().invoke(e -> LOG.debugf("gauge refresh failed: %s", e.getMessage()))
                .onFailure().recoverWithNull();
    }
}
