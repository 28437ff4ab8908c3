package io.jobmon.metrics.store;

import io.jobmon.metrics.config.MetricsConfig;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.ArrayList;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Daily (and at start): creates the coming days' partitions; drops raw chunk partitions past the raw retention
 * (3 days), 1-minute rollups past 30 days, 1-hour rollups past a year; forgets series, Xid events and head blocks
 * older than the longest retention. Retention is a partition drop, never a mass delete of samples.
 */
@ApplicationScoped
public class RetentionJob {

    private static final Logger LOG = Logger.getLogger(RetentionJob.class);

    private final Partitions partitions;
    private final HourRollups hours;
    private final Pool pool;
    private final Compactor compactor;
    private final MetricsConfig config;

    public RetentionJob(Partitions partitions, Pool pool, Compactor compactor, MetricsConfig config, HourRollups hours) {
        this.partitions = partitions;
        this.hours = hours;
        this.pool = pool;
        this.compactor = compactor;
        this.config = config;
    }

    void onStart(@Observes StartupEvent start) {
        run(System.currentTimeMillis()).subscribe().with(d -> {
        }, e -> LOG.warnf("metrics retention at start failed: %s", e.getMessage()));
    }

    @Scheduled(cron = "${jobmon.metrics.storage.maintenance-cron:0 17 0 * * ?}", timeZone = "UTC",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> daily() {
        return run(System.currentTimeMillis()).onFailure().invoke(e -> LOG.warnf("metrics retention failed: %s", e.getMessage()))
                .onFailure().recoverWithNull().replaceWithVoid();
    }

    /** @return the partitions dropped */
    public Uni<List<String>> run(long nowMs) {
        long[] kept = compactor.retentionStarts(nowMs);
        if (SeriesStores.external(config)) {
            // samples live in the engine (its own retention, ADR 0036): only the Xid events are jobmon's
            return pool.preparedQuery("DELETE FROM xid_event WHERE ts_ms < $1").execute(Tuple.of(kept[2]))
                    .replaceWith(List.of());
        }
        List<Long> ahead = new ArrayList<>();
        for (int i = 0; i <= config.storage().partitionsAhead(); i++) {
            ahead.add(Resolution.day(nowMs) + i * Resolution.DAY_MS);
        }
        List<String> dropped = new ArrayList<>();
        return Multi.createFrom().items(Partitions.Table.values()).onItem()
                .transformToUniAndConcatenate(t -> partitions.ensure(t, ahead)).collect().last()
                .chain(() -> partitions.dropBefore(Partitions.Table.CHUNK, kept[0]).invoke(dropped::addAll))
                // the days leaving the 1-minute rollups keep their 1-hour ones (until now read from the 1-minute: ADR 0050)
                .chain(() -> hours.fromMinutes(kept[2], kept[1]))
                .chain(() -> partitions.dropBefore(Partitions.Table.ROLLUP_1M, kept[1]).invoke(dropped::addAll))
                .chain(() -> partitions.dropBefore(Partitions.Table.ROLLUP_1H, kept[2]).invoke(dropped::addAll))
                .chain(() -> pool.preparedQuery("DELETE FROM xid_event WHERE ts_ms < $1").execute(Tuple.of(kept[2])))
                .chain(() -> pool.preparedQuery("DELETE FROM series WHERE last_day < $1").execute(Tuple.of(kept[2])))
                // label sets no series holds any more (their pods are long gone; V7)
                .chain(() -> pool.query("DELETE FROM label_set l WHERE NOT EXISTS (SELECT 1 FROM series s"
                        + " WHERE s.label_set_id = l.id)").execute())
                .chain(() -> pool.preparedQuery("DELETE FROM head_block WHERE max_ms < $1").execute(Tuple.of(kept[2])))
                .chain(() -> pool.preparedQuery("DELETE FROM head_window WHERE max_ms < $1").execute(Tuple.of(kept[2])))
                // a dropped partition fires no trigger: every replica forgets what it kept of the stored blocks
                .chain(() -> pool.query("SELECT pg_notify('" + ChangeNotices.CHANNEL + "', 'all')").execute())
                .invoke(() -> {
                    if (!dropped.isEmpty()) {
                        LOG.infof("dropped metric partitions past retention: %s", dropped);
                    }
                }).replaceWith(dropped);
    }
}
