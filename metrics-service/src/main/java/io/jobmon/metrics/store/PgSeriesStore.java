package io.jobmon.metrics.store;

import com.fasterxml.jackson.core.type.TypeReference;
import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.metrics.store.codec.Points;
import io.jobmon.metrics.store.codec.Rollups;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The embedded store: series in {@code series}, recent samples in head blocks, older ones in per-series chunks
 * and rollup chunks (docs/adr/0003-metric-chunks.md). The head and the chunks are read in one statement
 * ({@link BlockReads}): a window compacted meanwhile is found once, never missed.
 */
@ApplicationScoped
@jakarta.enterprise.inject.Typed(PgSeriesStore.class)
public class PgSeriesStore implements SeriesStore {

    /** A series' labels and attribution labels: its label set's (V7, V8; shared by the series with the same labels). */
    private static final String COLUMNS = "s.id, s.metric, s.node, s.counter, l.gpu, l.pod, l.namespace, l.cluster,"
            + " l.labels::text AS labels";
    private static final String SERIES = "SELECT " + COLUMNS + " FROM series s JOIN label_set l ON l.id = s.label_set_id ";
    /**
     * {@link #ofJob}: the job's pods and namespace from {@code job_info}, its nodes from {@code job_node} and from the
     * GPUs its pods held.
     */
    private static final String OF_JOB = "SELECT " + COLUMNS + " FROM job_info j JOIN label_set l ON l.pod = ANY(j.pods)"
            + " AND (j.namespace IS NULL OR l.namespace IS NULL OR l.namespace = j.namespace)"
            + " JOIN series s ON s.label_set_id = l.id AND s.metric = ANY($2::text[]) WHERE j.job_id = $1"
            + " UNION ALL " + SERIES + "WHERE s.node = ANY(ARRAY(SELECT node FROM job_node WHERE job_id = $1"
            // the nodes whose GPUs the job's pods held (gpu_holding): their series without pod labels (attribution by GPU)
            + " UNION SELECT h.node FROM job_info j JOIN gpu_holding h ON h.pod = ANY(j.pods) WHERE j.job_id = $1))"
            + " AND s.metric = ANY($3::text[]) ORDER BY id"; // in creation order, as charts list lines of equal rank
    /** The metric whose series say which GPUs were present ({@link #gpusPresent}): their newest sample is kept exactly. */
    static final String PRESENCE = "DCGM_FI_DEV_GPU_UTIL";
    private static final TypeReference<Map<String, String>> LABELS = new TypeReference<>() {
    };

    private final Pool pool;
    private final BlockReads reads;

    public PgSeriesStore(Pool pool, BlockReads reads) {
        this.pool = pool;
        this.reads = reads;
    }

    @Override
    public Uni<List<SeriesRef>> onNodes(Collection<String> nodes, Collection<String> metrics) {
        return pool.preparedQuery(SERIES + "WHERE s.node = ANY($1::text[]) AND s.metric = ANY($2::text[]) ORDER BY s.id")
                .execute(Tuple.of(nodes.toArray(String[]::new), metrics.toArray(String[]::new)))
                .map(PgSeriesStore::refs);
    }

    @Override
    public Uni<List<SeriesRef>> ofJob(String jobId, Collection<String> podMetrics, Collection<String> nodeMetrics) {
        return pool.preparedQuery(OF_JOB).execute(Tuple.of(jobId, podMetrics.toArray(String[]::new),
                nodeMetrics.toArray(String[]::new))).map(PgSeriesStore::refs);
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
        if (series.isEmpty() || toMs <= fromMs) {
            return Uni.createFrom().item(new HashMap<>());
        }
        long window = Resolution.window(fromMs);
        return reads.read(series, BlockReads.Table.CHUNK, window, window, toMs).map(found -> {
            Map<Long, Points> out = new HashMap<>();
            for (SeriesRef s : series) {
                List<Object> chunks = found.stored().getOrDefault(s.id(), List.of());
                List<Points> head = found.head().getOrDefault(s.id(), List.of());
                if (chunks.isEmpty() && head.isEmpty()) {
                    continue;
                }
                // chunks first, then the head: a late sample in the head wins over the compacted one
                Points p = new Points(64);
                chunks.forEach(c -> p.addAll((Points) c));
                head.forEach(p::addAll);
                out.put(s.id(), p.normalize().slice(fromMs, toMs));
            }
            return out;
        });
    }

    @Override
    public Uni<Map<Long, Rollups>> rollups(List<SeriesRef> series, Resolution res, long fromMs, long toMs) {
        if (series.isEmpty() || toMs <= fromMs) {
            return Uni.createFrom().item(new HashMap<>());
        }
        long bucketFrom = Math.floorDiv(fromMs, res.bucketMs) * res.bucketMs;
        long day = Resolution.day(fromMs);
        // Windows still in the head are rolled up here; compacted ones come from the rollup tables (preferred). A day's
        // 1-hour rollups are its 1-minute ones coarsened while those are kept, rollup_1h's rows after (ADR 0050): the
        // 1-minute read first, so that a day moved meanwhile by retention is found in both rather than in neither.
        BlockReads.Table table = res == Resolution.MINUTE ? BlockReads.Table.ROLLUP_1M : BlockReads.Table.ROLLUP_1M_HOURS;
        return reads.read(series, table, Resolution.window(fromMs), day, toMs).chain(found -> res == Resolution.MINUTE
                ? Uni.createFrom().item(combine(series, res, found, null, bucketFrom, toMs))
                : reads.read(series, BlockReads.Table.ROLLUP_1H, toMs, day, toMs)
                        .map(hours -> combine(series, res, found, hours, bucketFrom, toMs)));
    }

    /** Per series: the head rolled up, merged over the stored chunks ({@code older}'s first, if read). */
    private static Map<Long, Rollups> combine(List<SeriesRef> series, Resolution res, BlockReads.Found found,
            BlockReads.Found older, long bucketFrom, long toMs) {
        Map<Long, Rollups> out = new HashMap<>();
        for (SeriesRef s : series) {
            List<Points> head = found.head().getOrDefault(s.id(), List.of());
            List<Object> chunks = new ArrayList<>();
            if (older != null) {
                chunks.addAll(older.stored().getOrDefault(s.id(), List.of()));
            }
            chunks.addAll(found.stored().getOrDefault(s.id(), List.of()));
            Rollups kept = chunks.isEmpty() ? null : Rollups.concat(chunks.stream().map(c -> (Rollups) c).toList());
            Rollups fromHead = null;
            if (!head.isEmpty()) {
                Points p = new Points(64);
                head.forEach(p::addAll);
                fromHead = Rollups.of(p.normalize(), res.bucketMs, s.counter(), Double.NaN);
            }
            Rollups all = fromHead == null ? kept : kept == null ? fromHead : Rollups.merge(fromHead, kept);
            if (all != null) {
                out.put(s.id(), all.slice(bucketFrom, toMs));
            }
        }
        return out;
    }

    @Override
    public Uni<List<GpuPresent>> gpusPresent(long fromMs, long toMs) {
        return pool.preparedQuery("SELECT DISTINCT ON (s.node, l.gpu) s.node, l.gpu, l.cluster, l.pool FROM series s"
                + " JOIN label_set l ON l.id = s.label_set_id LEFT JOIN series_last t ON t.series_id = s.id"
                + " WHERE s.metric = '" + PRESENCE + "' AND l.gpu IS NOT NULL AND s.first_ms < $2"
                + " AND coalesce(t.last_ms, s.first_ms) >= $1 ORDER BY s.node, l.gpu, l.pool IS NULL, l.cluster IS NULL").execute(Tuple.of(fromMs, toMs)).map(rows -> {
                    List<GpuPresent> out = new ArrayList<>();
                    for (Row r : rows) {
                        out.add(new GpuPresent(r.getString("node"), r.getString("gpu"), r.getString("cluster"),
                                r.getString("pool")));
                    }
                    return out;
                });
    }
}
