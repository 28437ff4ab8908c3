package io.jobmon.events.ingest;

import io.jobmon.events.support.Times;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Daily (and at start): creates the coming days' event partitions, drops the partitions past retention, and
 * forgets the quota rows, pods and job states nobody touched within retention, and node events past it.
 */
@ApplicationScoped
public class RetentionJob {

    private static final Logger LOG = Logger.getLogger(RetentionJob.class);
    private static final String[] FORGET = {
        "DELETE FROM event_quota WHERE latest_time < $1 OR (latest_time IS NULL AND job_id IN"
                + " (SELECT job_id FROM job_state WHERE updated_at < $1))",
        "DELETE FROM pod_state WHERE updated_at < $1",
        "DELETE FROM node_event WHERE created_at < $1",
        "DELETE FROM job_state WHERE updated_at < $1"};

    private final EventPartitions partitions;
    private final Pool pool;

    public RetentionJob(EventPartitions partitions, Pool pool) {
        this.partitions = partitions;
        this.pool = pool;
    }

    void onStart(@Observes StartupEvent start) {
        // Partitions for today and the next days before the first record; bounded, the daily run catches up.
        try {
            run(Instant.now()).await().atMost(Duration.ofSeconds(30));
        } catch (RuntimeException e) {
            LOG.warnf("event retention at start failed, the daily run will retry: %s", e.getMessage());
        }
    }

    @Scheduled(cron = "${jobmon.events.maintenance-cron:0 7 0 * * ?}", timeZone = "UTC",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> daily() {
        return run(Instant.now()).onFailure().invoke(e -> LOG.warnf("event retention failed: %s", e.getMessage()))
                .onFailure().recoverWithNull().replaceWithVoid();
    }

    /** @return the partitions dropped */
    public Uni<List<String>> run(Instant now) {
        var cutoff = Times.ts(partitions.retentionStart(now));
        Uni<Void> forget = io.smallrye.mutiny.Multi.createFrom().items(FORGET).onItem()
                .transformToUniAndConcatenate(sql -> pool.preparedQuery(sql).execute(Tuple.of(cutoff)))
                .collect().last().replaceWithVoid();
        return partitions.maintain(now).call(() -> forget).invoke(dropped -> {
            if (!dropped.isEmpty()) {
                LOG.infof("dropped event partitions past retention: %s", dropped);
            }
        });
    }
}
