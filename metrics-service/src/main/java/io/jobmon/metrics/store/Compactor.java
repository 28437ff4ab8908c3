package io.jobmon.metrics.store;

import io.jobmon.metrics.config.MetricsConfig;
import io.jobmon.metrics.store.codec.ChunkCodec;
import io.jobmon.metrics.store.codec.HeadCodec;
import io.jobmon.metrics.store.codec.Points;
import io.jobmon.metrics.store.codec.Rollups;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * Turns the head blocks of a closed window (its end plus the grace has passed, by the wall clock or by newer
 * samples of the same node when history is backfilled) into one chunk per series and its part of the day's 1-minute
 * rollups (one rollup chunk per series and UTC day; 1-hour ones are read from them, ADR 0050), a few windows per
 * transaction, a node's in order, the day's rollup chunk written once per transaction ({@link DayRollups}); windows
 * are claimed with {@code FOR UPDATE SKIP LOCKED}, so replicas share the work. Late samples of a compacted window are merged into
 * its chunks by the next round.
 */
@ApplicationScoped
public class Compactor {

    private static final Logger LOG = Logger.getLogger(Compactor.class);
    private static final String CLOSED = "SELECT node, window_ms FROM head_window w WHERE window_ms + $1 <="
            + " greatest($2, (SELECT max(max_ms) FROM head_window v WHERE v.node = w.node))"
            + " ORDER BY node, window_ms LIMIT $3 FOR UPDATE SKIP LOCKED";

    private final Pool pool;
    private final Partitions partitions;
    private final MetricsConfig config;
    private final ChangeNotices notices;

    public Compactor(Pool pool, Partitions partitions, MetricsConfig config, ChangeNotices notices) {
        this.pool = pool;
        this.partitions = partitions;
        this.config = config;
        this.notices = notices;
    }

    @Scheduled(every = "${jobmon.metrics.storage.compact-every:30s}", delayed = "10s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> scheduled() {
        if (SeriesStores.external(config)) {
            return Uni.createFrom().voidItem(); // no head blocks: the engine keeps the samples (ADR 0036)
        }
        return compactAll(System.currentTimeMillis()).onFailure()
                .invoke(e -> LOG.warnf("compaction failed, next round retries: %s", e.getMessage()))
                .onFailure().recoverWithNull().replaceWithVoid();
    }

    /** Compacts every closed window, a few per transaction; returns the number of windows compacted. */
    public Uni<Integer> compactAll(long nowMs) {
        return compactSome(nowMs, 8).chain(n -> n == 0 ? Uni.createFrom().item(0)
                : compactAll(nowMs).map(more -> more + n));
    }

    private Uni<Integer> compactSome(long nowMs, int limit) {
        long closedAfter = Resolution.WINDOW_MS + config.storage().compactionGrace().toMillis();
        long[] retained = retentionStarts(nowMs);
        List<Long> days = new ArrayList<>();
        List<Object[]> windows = new ArrayList<>();
        DayRollups rollups = new DayRollups();
        return pool.withTransaction(conn -> conn.preparedQuery(CLOSED).execute(Tuple.of(closedAfter, nowMs, limit))
                .chain(rows -> {
                    for (Row r : rows) {
                        windows.add(new Object[] {r.getString("node"), r.getLong("window_ms")});
                        days.add(r.getLong("window_ms"));
                    }
                    if (windows.isEmpty()) {
                        return Uni.createFrom().item(0);
                    }
                    return partitions.ensure(Partitions.Table.CHUNK, days)
                            .chain(() -> partitions.ensure(Partitions.Table.ROLLUP_1M, days))
                            .chain(() -> partitions.ensure(Partitions.Table.ROLLUP_1H, days))
                            .chain(() -> Multi.createFrom().iterable(windows).onItem()
                                    .transformToUniAndConcatenate(w -> compact(conn, (String) w[0], (Long) w[1], retained,
                                            rollups))
                                    .collect().last())
                            .chain(() -> rollups.write(conn))
                            .replaceWith(windows.size());
                }))
                // this replica knows at once (the notices of the commit reach every replica a moment later)
                .invoke(() -> windows.forEach(w -> notices.wrote(BlockReads.headToken((String) w[0]))));
    }

    /** The first kept instant of raw, 1-minute and 1-hour data. */
    long[] retentionStarts(long nowMs) {
        MetricsConfig.Storage s = config.storage();
        long today = Resolution.day(nowMs);
        return new long[] {today - (s.rawRetentionDays() - 1L) * Resolution.DAY_MS,
                today - (s.rollup1mRetentionDays() - 1L) * Resolution.DAY_MS,
                today - (s.rollup1hRetentionDays() - 1L) * Resolution.DAY_MS};
    }

    private Uni<Void> compact(SqlConnection conn, String node, long window, long[] retained, DayRollups rollups) {
        return conn.preparedQuery("SELECT id, body FROM head_block WHERE node = $1 AND window_ms = $2")
                .execute(Tuple.of(node, window)).emitOn(Infrastructure.getDefaultWorkerPool()).chain(rows -> {
                    Map<Long, Points> series = new HashMap<>();
                    List<Long> blockIds = new ArrayList<>();
                    for (Row r : rows) {
                        blockIds.add(r.getLong("id"));
                        HeadCodec.decode(r.getBuffer("body").getBytes(), id -> true, series);
                    }
                    Long[] ids = series.keySet().toArray(Long[]::new);
                    return conn.preparedQuery("SELECT s.id, s.metric, s.counter, t.last_ms, t.last_value, c.body FROM series s"
                            + " LEFT JOIN series_last t ON t.series_id = s.id LEFT JOIN chunk c ON c.series_id = s.id"
                            + " AND c.start_ms = $2 WHERE s.id = ANY($1::bigint[])")
                            .execute(Tuple.of(ids, window)).emitOn(Infrastructure.getDefaultWorkerPool())
                            .chain(existing -> write(conn, window, series, existing, retained, rollups))
                            .chain(() -> conn.preparedQuery("DELETE FROM head_block WHERE id = ANY($1::bigint[])")
                                    .execute(Tuple.of(blockIds.toArray(Long[]::new))))
                            .chain(() -> conn.preparedQuery("DELETE FROM head_window WHERE node = $1 AND window_ms = $2")
                                    .execute(Tuple.of(node, window)))
                            .replaceWithVoid();
                });
    }

    private Uni<Void> write(SqlConnection conn, long window, Map<Long, Points> series, Iterable<Row> existing,
            long[] retained, DayRollups rollups) {
        int n = series.size();
        List<Long> ids = new ArrayList<>(n);
        List<Points> merged = new ArrayList<>(n);
        List<Rollups> minutes = new ArrayList<>(n);
        Long[] lastMs = new Long[n];
        Double[] lastValue = new Double[n];
        Boolean[] exact = new Boolean[n];
        int i = 0;
        for (Row r : existing) {
            long id = r.getLong("id");
            Points p = series.get(id);
            if (r.getBuffer("body") != null) {
                Points old = ChunkCodec.decode(r.getBuffer("body").getBytes());
                old.addAll(p);
                p = old;
            }
            p = p.normalize().slice(window, window + Resolution.WINDOW_MS);
            if (p.n == 0) {
                continue;
            }
            Long prevMs = r.getLong("last_ms");
            Double prevValue = r.getDouble("last_value");
            double before = prevValue != null && prevMs != null && prevMs < window
                    && prevMs >= window - Resolution.WINDOW_MS ? prevValue : Double.NaN;
            ids.add(id);
            merged.add(p);
            minutes.add(Rollups.of(p, Resolution.MINUTE.bucketMs, Boolean.TRUE.equals(r.getBoolean("counter")), before));
            boolean newer = prevMs == null || p.last() >= prevMs;
            lastMs[i] = newer ? p.last() : prevMs;
            lastValue[i] = newer ? p.v[p.n - 1] : prevValue;
            exact[i] = Boolean.TRUE.equals(r.getBoolean("counter")) || PgSeriesStore.PRESENCE.equals(r.getString("metric"));
            i++;
        }
        int m = ids.size();
        Long[] idArr = ids.toArray(Long[]::new);
        // the newest compacted sample of the series that need it (a counter's next window, the GPUs present), and of
        // every series the day it lies in, once per day (retention; V8, ADR 0050)
        Uni<Void> done = conn.preparedQuery("INSERT INTO series_last (series_id, last_ms, last_value) SELECT id, t, v FROM"
                + " unnest($1::bigint[], $2::bigint[], $3::float8[], $4::bool[]) AS u(id, t, v, e) WHERE e"
                + " ON CONFLICT (series_id) DO UPDATE SET last_ms = EXCLUDED.last_ms, last_value = EXCLUDED.last_value")
                .execute(Tuple.of(idArr, java.util.Arrays.copyOf(lastMs, m), java.util.Arrays.copyOf(lastValue, m),
                        java.util.Arrays.copyOf(exact, m)))
                .chain(() -> conn.preparedQuery("UPDATE series s SET last_day = u.t - mod(u.t, " + Resolution.DAY_MS
                        + ") FROM unnest($1::bigint[], $2::bigint[]) AS u(id, t) WHERE s.id = u.id"
                        + " AND s.last_day < u.t - mod(u.t, " + Resolution.DAY_MS + ")")
                        .execute(Tuple.of(idArr, java.util.Arrays.copyOf(lastMs, m))))
                .replaceWithVoid();
        if (window >= retained[0]) {
            Buffer[] bodies = new Buffer[m];
            for (int k = 0; k < m; k++) {
                bodies[k] = Buffer.buffer(ChunkCodec.encode(merged.get(k)));
            }
            done = done.chain(() -> conn.preparedQuery("INSERT INTO chunk (series_id, start_ms, body)"
                    + " SELECT id, $2, b FROM unnest($1::bigint[], $3::bytea[]) AS u(id, b)"
                    + " ON CONFLICT (series_id, start_ms) DO UPDATE SET body = EXCLUDED.body")
                    .execute(Tuple.tuple().addArrayOfLong(idArr).addValue(window).addValue(bodies)).replaceWithVoid());
        }
        // 1-hour rollups of a day whose 1-minute ones are kept are read from those (ADR 0050): written here only for
        // a day already past the 1-minute retention (a late backfill), else when retention drops the day (HourRollups)
        String table = window >= retained[1] ? "rollup_1m" : window >= retained[2] ? "rollup_1h" : null;
        if (table != null) {
            long day = Resolution.day(window);
            for (int k = 0; k < m; k++) {
                rollups.add(table, day, idArr[k], table.equals("rollup_1m") ? minutes.get(k)
                        : Rollups.coarsen(minutes.get(k), Resolution.HOUR.bucketMs));
            }
        }
        return done;
    }
}
