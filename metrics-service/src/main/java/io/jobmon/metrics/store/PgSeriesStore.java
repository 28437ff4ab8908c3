package io.jobmon.metrics.store;

import com.fasterxml.jackson.core.type.TypeReference;
import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.metrics.store.codec.ChunkCodec;
import io.jobmon.metrics.store.codec.Points;
import io.jobmon.metrics.store.codec.Rollups;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The embedded store: series in {@code series}, recent samples in head blocks, older ones in per-series chunks
 * and rollup chunks (docs/adr/0003-metric-chunks.md). Reads the head before the chunks: a window compacted in
 * between is then found twice (deduplicated), never missed.
 */
@ApplicationScoped
public class PgSeriesStore implements SeriesStore {

    private static final String SERIES = "SELECT id, metric, node, counter, gpu, pod, namespace, cluster, labels::text"
            + " AS labels FROM series ";
    private static final TypeReference<Map<String, String>> LABELS = new TypeReference<>() {
    };

    private final Pool pool;
    private final HeadRepository head;

    public PgSeriesStore(Pool pool, HeadRepository head) {
        this.pool = pool;
        this.head = head;
    }

    @Override
    public Uni<List<SeriesRef>> onNodes(Collection<String> nodes, Collection<String> metrics) {
        return pool.preparedQuery(SERIES + "WHERE node = ANY($1::text[]) AND metric = ANY($2::text[])")
                .execute(Tuple.of(nodes.toArray(String[]::new), metrics.toArray(String[]::new)))
                .map(PgSeriesStore::refs);
    }

    @Override
    public Uni<List<SeriesRef>> ofPods(String namespace, Collection<String> pods, Collection<String> metrics) {
        return pool.preparedQuery(SERIES + "WHERE pod = ANY($1::text[]) AND metric = ANY($2::text[])"
                + " AND ($3::text IS NULL OR namespace IS NULL OR namespace = $3)")
                .execute(Tuple.of(pods.toArray(String[]::new), metrics.toArray(String[]::new), namespace))
                .map(PgSeriesStore::refs);
    }

    static List<SeriesRef> refs(RowSet<Row> rows) {
        List<SeriesRef> out = new ArrayList<>();
        for (Row r : rows) {
            Map<String, String> labels;
            try {
                labels = CloudEvents.MAPPER.readValue(r.getString("labels"), LABELS);
            } catch (Exception e) {
                labels = Map.of();
            }
            out.add(new SeriesRef(r.getLong("id"), r.getString("metric"), r.getString("node"), r.getBoolean("counter"),
                    r.getString("gpu"), r.getString("pod"), r.getString("namespace"), r.getString("cluster"), labels));
        }
        return out;
    }

    @Override
    public Uni<Map<Long, Points>> raw(List<SeriesRef> series, long fromMs, long toMs) {
        Map<Long, Points> out = new HashMap<>();
        if (series.isEmpty() || toMs <= fromMs) {
            return Uni.createFrom().item(out);
        }
        Set<Long> ids = ids(series);
        return head.read(pool, nodes(series), fromMs, toMs, ids::contains, out)
                .chain(() -> pool.preparedQuery("SELECT series_id, body FROM chunk WHERE series_id = ANY($1::bigint[])"
                        + " AND start_ms >= $2 AND start_ms < $3 AND max_ms >= $4")
                        .execute(Tuple.of(ids.toArray(Long[]::new), Resolution.window(fromMs), toMs, fromMs)))
                .emitOn(Infrastructure.getDefaultWorkerPool())
                .map(rows -> {
                    for (Row r : rows) {
                        out.computeIfAbsent(r.getLong("series_id"), k -> new Points(16))
                                .addAll(ChunkCodec.decode(r.getBuffer("body").getBytes()));
                    }
                    out.replaceAll((id, p) -> p.normalize().slice(fromMs, toMs));
                    return out;
                });
    }

    @Override
    public Uni<Map<Long, Rollups>> rollups(List<SeriesRef> series, Resolution res, long fromMs, long toMs) {
        Map<Long, Rollups> out = new HashMap<>();
        if (series.isEmpty() || toMs <= fromMs) {
            return Uni.createFrom().item(out);
        }
        Set<Long> ids = ids(series);
        Map<Long, Boolean> counters = new HashMap<>();
        series.forEach(s -> counters.put(s.id(), s.counter()));
        Map<Long, Points> recent = new HashMap<>();
        String table = res == Resolution.MINUTE ? "rollup_1m" : "rollup_1h";
        long chunkFrom = res == Resolution.MINUTE ? Resolution.window(fromMs) : Resolution.day(fromMs);
        // Windows still in the head are rolled up here; compacted ones come from the rollup tables (preferred).
        return head.read(pool, nodes(series), fromMs, toMs, ids::contains, recent)
                .chain(() -> pool.preparedQuery("SELECT series_id, body FROM " + table
                        + " WHERE series_id = ANY($1::bigint[]) AND start_ms >= $2 AND start_ms < $3")
                        .execute(Tuple.of(ids.toArray(Long[]::new), chunkFrom, toMs)))
                .emitOn(Infrastructure.getDefaultWorkerPool())
                .map(rows -> {
                    Map<Long, Rollups> stored = new HashMap<>();
                    for (Row r : rows) {
                        Rollups chunk = Rollups.decode(r.getBuffer("body").getBytes());
                        stored.merge(r.getLong("series_id"), chunk, Rollups::merge);
                    }
                    for (long id : ids) {
                        Points p = recent.get(id);
                        Rollups fromHead = p == null ? null
                                : Rollups.of(p.normalize(), res.bucketMs, counters.getOrDefault(id, false), Double.NaN);
                        Rollups kept = stored.get(id);
                        Rollups all = fromHead == null ? kept : kept == null ? fromHead : Rollups.merge(fromHead, kept);
                        if (all != null) {
                            out.put(id, all.slice(Math.floorDiv(fromMs, res.bucketMs) * res.bucketMs, toMs));
                        }
                    }
                    return out;
                });
    }

    private static Set<Long> ids(List<SeriesRef> series) {
        Set<Long> ids = new HashSet<>();
        series.forEach(s -> ids.add(s.id()));
        return ids;
    }

    private static String[] nodes(List<SeriesRef> series) {
        Set<String> nodes = new HashSet<>();
        series.forEach(s -> nodes.add(s.node()));
        return nodes.toArray(String[]::new);
    }
}
