package io.jobmon.metrics.store;

import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.MetricSamples;
import io.jobmon.metrics.config.MetricsConfig;
import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Series identities: node + metric name + sorted labels ({@link SeriesKey}) → id, created once
 * ({@code ON CONFLICT DO NOTHING}, so replicas racing on a new series agree) and kept in memory by the consumer. The
 * table finds a series by the MD5 digest of its key's text ({@code key_hash}, as PostgreSQL's {@code md5()} computes
 * it); the text is built only for a series not in memory.
 */
@ApplicationScoped
public class SeriesRepository {

    /** The series' label sets first (one per distinct labels, shared by the series that carry them: V7). */
    private static final String LABEL_SETS = "INSERT INTO label_set (key_hash, labels) SELECT DISTINCT ON (h) h, l FROM"
            + " (SELECT decode(md5(l::jsonb::text), 'hex') AS h, l::jsonb AS l FROM unnest($1::text[]) AS u(l)) d"
            + " ON CONFLICT (key_hash) DO NOTHING";
    private static final String INSERT = "INSERT INTO series (key_hash, metric, node, label_set_id, counter, gpu, pod,"
            + " namespace, container, cluster, pool, first_ms, last_ms)"
            + " SELECT k, m, n, (SELECT id FROM label_set WHERE key_hash = decode(md5(l::jsonb::text), 'hex')), c, g, p,"
            + " ns, ct, cl, po, f, f FROM unnest($1::bytea[], $2::text[], $3::text[],"
            + " $4::text[], $5::bool[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[],"
            + " $12::bigint[]) AS u(k, m, n, l, c, g, p, ns, ct, cl, po, f) ON CONFLICT (key_hash) DO NOTHING";
    private static final String SELECT = "SELECT id, key_hash FROM series WHERE key_hash = ANY($1::bytea[])";

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
        String[] k = new String[n], m = new String[n], nd = new String[n], l = new String[n], g = new String[n],
                p = new String[n], ns = new String[n], ct = new String[n], cl = new String[n], po = new String[n];
        Boolean[] c = new Boolean[n];
        Long[] f = new Long[n];
        for (int i = 0; i < n; i++) {
            NewSeries s = list.get(i);
            Map<String, String> labels = s.series().labels() == null ? Map.of() : s.series().labels();
            k[i] = s.key().text();
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
        Buffer[] hashes = new Buffer[n];
        Map<String, SeriesKey> byHash = new HashMap<>();
        for (int i = 0; i < n; i++) {
            byte[] d = digest(k[i]);
            hashes[i] = Buffer.buffer(d);
            byHash.put(HexFormat.of().formatHex(d), list.get(i).key());
        }
        Tuple args = Tuple.tuple().addValue(hashes).addArrayOfString(m).addArrayOfString(nd).addArrayOfString(l)
                .addArrayOfBoolean(c).addArrayOfString(g).addArrayOfString(p).addArrayOfString(ns)
                .addArrayOfString(ct).addArrayOfString(cl).addArrayOfString(po).addArrayOfLong(f);
        return pool.preparedQuery(LABEL_SETS).execute(Tuple.tuple().addArrayOfString(l))
                .chain(() -> pool.preparedQuery(INSERT).execute(args))
                .chain(() -> pool.preparedQuery(SELECT).execute(Tuple.tuple().addValue(hashes)))
                .map(rows -> {
                    if (cache.size() + rows.size() > capacity) {
                        cache.clear();
                    }
                    Map<SeriesKey, Long> found = new HashMap<>();
                    for (Row r : rows) {
                        SeriesKey key = byHash.get(HexFormat.of().formatHex(r.getBuffer("key_hash").getBytes()));
                        if (key != null) {
                            found.put(key, r.getLong("id"));
                            cache.put(key, r.getLong("id"));
                        }
                    }
                    return found;
                });
    }

    /** The key's MD5 digest, as PostgreSQL's {@code decode(md5(key), 'hex')}. */
    static byte[] digest(String key) {
        try {
            return MessageDigest.getInstance("MD5").digest(key.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Forgets the cached ids (a test that wiped the table). */
    public void forget() {
        cache.clear();
    }
}
