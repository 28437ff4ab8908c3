package io.jobmon.metrics.store;

import io.jobmon.metrics.store.codec.Rollups;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The rollups of the windows one compaction transaction compacted, merged into each series' chunk of the UTC day
 * once at its end (ADR 0050): a node's windows of one day compacted together rewrite the day's row once, not once per
 * window. 1-minute rollups, or 1-hour ones for a day past the 1-minute retention. 1-minute chunks of the layout before
 * V3 (one per window) are merged in and dropped.
 */
final class DayRollups {

    /** table → day → series → the windows' rollups, in the order the windows were compacted (older first). */
    private final Map<String, Map<Long, Map<Long, Rollups>>> pending = new TreeMap<>();

    void add(String table, long day, long seriesId, Rollups r) {
        pending.computeIfAbsent(table, k -> new TreeMap<>()).computeIfAbsent(day, k -> new LinkedHashMap<>())
                .merge(seriesId, r, Rollups::merge);
    }

    Uni<Void> write(SqlConnection conn) {
        List<Uni<Void>> steps = new ArrayList<>();
        pending.forEach((table, days) -> days.forEach((day, series) -> steps.add(Uni.createFrom().deferred(
                () -> writeDay(conn, table, day, series)))));
        return Multi.createFrom().iterable(steps).onItem().transformToUniAndConcatenate(u -> u).collect().last()
                .replaceWithVoid();
    }

    private static Uni<Void> writeDay(SqlConnection conn, String table, long day, Map<Long, Rollups> series) {
        Long[] ids = series.keySet().toArray(Long[]::new);
        return conn.preparedQuery("SELECT series_id, start_ms, body FROM " + table + " WHERE series_id = ANY($1::bigint[])"
                + " AND start_ms >= $2 AND start_ms < $3 ORDER BY 1, 2").execute(Tuple.of(ids, day, day + Resolution.DAY_MS))
                .emitOn(Infrastructure.getDefaultWorkerPool())
                .chain(rows -> {
                    Map<Long, Rollups> old = new HashMap<>();
                    boolean windowChunks = false;
                    for (Row r : rows) {
                        windowChunks |= r.getLong("start_ms") != day;
                        old.merge(r.getLong("series_id"), Rollups.decode(r.getBuffer("body").getBytes()), Rollups::merge);
                    }
                    Buffer[] bodies = new Buffer[ids.length];
                    Integer[] points = new Integer[ids.length];
                    for (int k = 0; k < ids.length; k++) {
                        Rollups o = old.get(ids[k]);
                        Rollups merged = o == null ? series.get(ids[k]) : Rollups.merge(o, series.get(ids[k]));
                        bodies[k] = Buffer.buffer(merged.encode());
                        points[k] = merged.n;
                    }
                    Uni<Void> u = upsert(conn, table, ids, day, points, bodies);
                    if (windowChunks) {
                        u = u.chain(() -> conn.preparedQuery("DELETE FROM " + table + " WHERE series_id ="
                                + " ANY($1::bigint[]) AND start_ms > $2 AND start_ms < $3").execute(Tuple.of(ids, day,
                                        day + Resolution.DAY_MS)).replaceWithVoid());
                    }
                    return u;
                });
    }

    /** Writes these series' rollup chunks of the day, replacing those there. */
    static Uni<Void> upsert(SqlConnection conn, String table, Long[] ids, long day, Integer[] points, Buffer[] bodies) {
        return conn.preparedQuery("INSERT INTO " + table + " (series_id, start_ms, points, body) SELECT id, $2, p, b"
                + " FROM unnest($1::bigint[], $3::int[], $4::bytea[]) AS u(id, p, b) ON CONFLICT (series_id, start_ms)"
                + " DO UPDATE SET points = EXCLUDED.points, body = EXCLUDED.body")
                .execute(Tuple.tuple().addArrayOfLong(ids).addValue(day).addArrayOfInteger(points).addValue(bodies))
                .replaceWithVoid();
    }
}
