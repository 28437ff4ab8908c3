package io.jobmon.metrics.store;

import io.jobmon.metrics.store.codec.Rollups;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a day's 1-hour rollups when its 1-minute ones leave (retention, before their partition is dropped): while a
 * day's 1-minute rollups are kept, its 1-hour ones are read from them (ADR 0050), so {@code rollup_1h} holds only the
 * days past the 1-minute retention. The 1-hour chunk of a series and day is its 1-minute chunks coarsened, merged over
 * a 1-hour chunk already there (written by an older version, or by a backfill past the 1-minute retention).
 */
@ApplicationScoped
public class HourRollups {

    /** Series per statement: a day of 1-minute rollups is ~1,440 buckets per series. */
    static final int BATCH = 2000;

    private final Pool pool;
    private final Partitions partitions;

    public HourRollups(Pool pool, Partitions partitions) {
        this.pool = pool;
        this.partitions = partitions;
    }

    /** Writes the 1-hour rollups of every day in [fromMs, beforeMs) that has 1-minute rollups; returns the days. */
    public Uni<Integer> fromMinutes(long fromMs, long beforeMs) {
        return pool.preparedQuery("SELECT min(start_ms) AS d FROM rollup_1m WHERE start_ms >= $1 AND start_ms < $2")
                .execute(Tuple.of(fromMs, beforeMs)).chain(rows -> {
                    Long first = rows.iterator().next().getLong("d");
                    if (first == null) {
                        return Uni.createFrom().item(0);
                    }
                    long day = Resolution.day(first);
                    return partitions.ensure(Partitions.Table.ROLLUP_1H, List.of(day))
                            .chain(() -> day(day, -1L))
                            .chain(() -> fromMinutes(day + Resolution.DAY_MS, beforeMs)).map(n -> n + 1);
                });
    }

    /** One day's series after {@code afterId}, a batch at a time, each batch in one transaction. */
    private Uni<Void> day(long day, long afterId) {
        return pool.withTransaction(conn -> conn.preparedQuery("SELECT m.series_id, m.start_ms, m.body, h.body AS hour"
                + " FROM rollup_1m m LEFT JOIN rollup_1h h ON h.series_id = m.series_id AND h.start_ms = $1"
                + " WHERE m.start_ms >= $1 AND m.start_ms < $2 AND m.series_id IN (SELECT DISTINCT series_id FROM"
                + " rollup_1m WHERE start_ms >= $1 AND start_ms < $2 AND series_id > $3 ORDER BY 1 LIMIT $4)"
                + " ORDER BY 1, 2").execute(Tuple.of(day, day + Resolution.DAY_MS, afterId, BATCH))
                .emitOn(Infrastructure.getDefaultWorkerPool()).chain(rows -> {
                    Map<Long, Rollups> minutes = new LinkedHashMap<>();
                    Map<Long, Rollups> hours = new LinkedHashMap<>();
                    for (Row r : rows) {
                        long id = r.getLong("series_id");
                        minutes.merge(id, Rollups.decode(r.getBuffer("body").getBytes()), Rollups::merge);
                        if (r.getBuffer("hour") != null) {
                            hours.putIfAbsent(id, Rollups.decode(r.getBuffer("hour").getBytes()));
                        }
                    }
                    if (minutes.isEmpty()) {
                        return Uni.createFrom().item(-1L);
                    }
                    List<Long> ids = new ArrayList<>(minutes.keySet());
                    Buffer[] bodies = new Buffer[ids.size()];
                    Integer[] points = new Integer[ids.size()];
                    for (int k = 0; k < ids.size(); k++) {
                        Rollups h = Rollups.coarsen(minutes.get(ids.get(k)), Resolution.HOUR.bucketMs);
                        Rollups old = hours.get(ids.get(k));
                        h = old == null ? h : Rollups.merge(old, h);
                        bodies[k] = Buffer.buffer(h.encode());
                        points[k] = h.n;
                    }
                    return DayRollups.upsert(conn, "rollup_1h", ids.toArray(Long[]::new), day, points, bodies)
                            .replaceWith(ids.size() < BATCH ? -1L : ids.get(ids.size() - 1));
                })).chain(next -> next < 0 ? Uni.createFrom().voidItem() : day(day, next));
    }
}
