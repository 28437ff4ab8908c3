package io.jobmon.metrics.store;

import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.MetricSamples;
import io.jobmon.metrics.config.MetricsConfig;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Series identities: node + metric name + sorted labels ({@link SeriesKey}) → id, created once
 * ({@code ON CONFLICT DO NOTHING}, so replicas racing on a new series agree) and kept in memory by the consumer. The
 * table finds a series by node, metric and label set (V8; the label set by the MD5 digest of its JSONB text).
 */
@ApplicationScoped
public class SeriesRepository {

    /**
     * The series' label sets first (one per distinct labels, shared by the series that carry them: V7), with the
     * attribution labels the queries look up (V8).
     */
    private static final String LABEL_SETS = "INSERT INTO label_set (key_hash, labels, gpu, pod, namespace, container,"
            + " cluster, pool) SELECT DISTINCT ON (h) h, l, g, p, ns, ct, cl, po FROM (SELECT decode(md5(l::jsonb::text),"
            + " 'hex') AS h, l::jsonb AS l, g, p, ns, ct, cl, po FROM unnest($1::text[], $2::text[], $3::text[],"
            + " $4::text[], $5::text[], $6::text[], $7::text[]) AS u(l, g, p, ns, ct, cl, po)) d"
            + " ON CONFLICT (key_hash) DO NOTHING";
    /** The series of these (metric, node, labels), created if new, with their position in the arrays (from 1). */
    private static final String WANTED = "SELECT u.m, u.n, l.id AS label_set_id, u.c, u.f, u.i FROM unnest($1::text[],"
            + " $2::text[], $3::text[], $4::bool[], $5::bigint[]) WITH ORDINALITY AS u(m, n, l, c, f, i)"
            + " JOIN label_set l ON l.key_hash = decode(md5(u.l::jsonb::text), 'hex')";
    private static final String INSERT = "INSERT INTO series (metric, node, label_set_id, counter, first_ms, last_day)"
            + " SELECT m, n, label_set_id, c, f, f - mod(f, " + Resolution.DAY_MS + ") FROM (" + WANTED + ") w"
            + " ON CONFLICT (node, metric, label_set_id) DO NOTHING";
    private static final String SELECT = "SELECT s.id, w.i FROM (" + WANTED + ") w JOIN series s ON s.node = w.n"
            + " AND s.metric = w.m AND s.label_set_id = w.label_set_id";

    private final Pool pool;
    private final Map<SeriesKey, Long> cache = new ConcurrentHashMap<>();
    private final int capacity;

    public SeriesRepository(Pool pool, MetricsConfig config) {
        this.pool = pool;
        this.capacity = config.storage().seriesCache();
    }

    /** A series not yet known, as the first sample that named it describes it. */
    private record NewSeries(SeriesKey key, String node, MetricSamples.Series series) {
    }

    /**
     * The ids of these series, in the order of {@code keys}.
     *
     * @param keys the identity of each series
     * @param nodes the node of each series
     */
    public Uni<long[]> resolve(SeriesKey[] keys, String[] nodes, MetricSamples.Series[] series) {
        long[] ids = new long[keys.length];
        Map<SeriesKey, NewSeries> missing = new LinkedHashMap<>();
        for (int i = 0; i < keys.length; i++) {
            Long id = cache.get(keys[i]);
            if (id != null) {
                ids[i] = id;
            } else {
                ids[i] = -1;
                missing.putIfAbsent(keys[i], new NewSeries(keys[i], nodes[i], series[i]));
            }
        }
        if (missing.isEmpty()) {
            return Uni.createFrom().item(ids);
        }
        return create(List.copyOf(missing.values())).map(found -> {
            for (int i = 0; i < keys.length; i++) {
                if (ids[i] < 0) {
                    Long id = found.get(keys[i]);
                    if (id == null) {
                        throw new IllegalStateException("series not created: " + keys[i]);
                    }
                    ids[i] = id;
                }
            }
            return ids;
        });
    }

    private Uni<Map<SeriesKey, Long>> create(List<NewSeries> list) {
        int n = list.size();
        String[] m = new String[n], nd = new String[n], l = new String[n], g = new String[n], p = new String[n],
                ns = new String[n], ct = new String[n], cl = new String[n], po = new String[n];
        Boolean[] c = new Boolean[n];
        Long[] f = new Long[n];
        for (int i = 0; i < n; i++) {
            NewSeries s = list.get(i);
            Map<String, String> labels = new java.util.TreeMap<>();
            if (s.series().labels() != null) { // an empty label is no label (as in the key)
                s.series().labels().forEach((k, v) -> {
                    if (v != null && !v.isEmpty()) {
                        labels.put(k, v);
                    }
                });
            }
            m[i] = s.series().name();
            nd[i] = s.node();
            l[i] = CloudEvents.toJson(labels);
            c[i] = MetricKinds.isCounter(s.series().name());
            g[i] = SeriesLabels.get(labels, SeriesLabels.GPU);
            p[i] = SeriesLabels.get(labels, SeriesLabels.POD);
            ns[i] = SeriesLabels.get(labels, SeriesLabels.NAMESPACE);
            ct[i] = SeriesLabels.get(labels, SeriesLabels.CONTAINER);
            cl[i] = SeriesLabels.get(labels, SeriesLabels.CLUSTER);
            po[i] = SeriesLabels.get(labels, SeriesLabels.POOL);
            f[i] = s.series().timestampsMs().length == 0 ? 0 : s.series().timestampsMs()[0];
        }
        Tuple sets = Tuple.tuple().addArrayOfString(l).addArrayOfString(g).addArrayOfString(p).addArrayOfString(ns)
                .addArrayOfString(ct).addArrayOfString(cl).addArrayOfString(po);
        Tuple args = Tuple.tuple().addArrayOfString(m).addArrayOfString(nd).addArrayOfString(l).addArrayOfBoolean(c)
                .addArrayOfLong(f);
        return pool.preparedQuery(LABEL_SETS).execute(sets)
                .chain(() -> pool.preparedQuery(INSERT).execute(args))
                .chain(() -> pool.preparedQuery(SELECT).execute(args))
                .map(rows -> {
                    if (cache.size() + rows.size() > capacity) {
                        cache.clear();
                    }
                    Map<SeriesKey, Long> found = new HashMap<>();
                    for (Row r : rows) {
                        SeriesKey key = list.get((int) (r.getLong("i") - 1)).key();
                        found.put(key, r.getLong("id"));
                        cache.put(key, r.getLong("id"));
                    }
                    return found;
                });
    }

    /** Forgets the cached ids (a test that wiped the table). */
    public void forget() {
        cache.clear();
    }
}
