package io.jobmon.jobs.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.quarkus.scheduler.Scheduled;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * Gauges counted from the database (so every instance reports the same truth):
 * {@code jobmon_jobs{status, cluster, queue}} for live (non-final) jobs, and {@code jobmon_outbox_pending}.
 */
@ApplicationScoped
public class JobGauges {

    private static final Logger LOG = Logger.getLogger(JobGauges.class);

    private final Pool pool;
    private final MultiGauge jobs;
    private final AtomicLong outbox = new AtomicLong();

    public JobGauges(Pool pool, MeterRegistry registry) {
        this.pool = pool;
        this.jobs = MultiGauge.builder("jobmon.jobs").description("live jobs by status, cluster and queue")
                .register(registry);
        // A strong reference: a plain registry.gauge(...) holds its number weakly and may report nothing.
        io.micrometer.core.instrument.Gauge.builder("jobmon.outbox.pending", outbox, AtomicLong::get)
                .description("snapshots committed but not yet published").strongReference(true).register(registry);
    }

    @Scheduled(every = "${jobmon.metrics.refresh:15s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    public void refresh() {
        try {
            List<MultiGauge.Row<?>> rows = new ArrayList<>();
            pool.query("SELECT status, cluster, queue, count(*) AS n FROM job "
                    + "WHERE status NOT IN ('SUCCEEDED', 'FAILED', 'STOPPED') GROUP BY 1, 2, 3").execute()
                    .await().indefinitely()
                    .forEach(r -> rows.add(MultiGauge.Row.of(Tags.of("status", r.getString("status"), "cluster",
                            r.getString("cluster"), "queue", r.getString("queue")), r.getLong("n"))));
            jobs.register(rows, true);
            outbox.set(pool.query("SELECT count(*) AS n FROM outbox").execute().await().indefinitely()
                    .iterator().next().getLong("n"));
        } catch (RuntimeException e) {
            LOG.debugf("gauge refresh failed: %s", e.getMessage());
        }
    }
}
