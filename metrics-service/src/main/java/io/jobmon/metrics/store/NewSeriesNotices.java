package io.jobmon.metrics.store;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.jobmon.contracts.events.MetricSamples;
import io.jobmon.metrics.ingest.SampleBatch;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code storage=prometheus}: the change notices {@code node:<node>} and {@code pod:<pod>} of series this replica's
 * forwarder had not sent before, as the builtin store's series table sends them (V4, V8): a job's view
 * ({@code JobViews}) is then kept until such a notice, not read again every scrape interval (ADR 0057). Sent in the
 * transaction that saves the forwarded records' offsets, after the engine's 2xx. A series counts as seen by a 64-bit
 * hash of its name, labels and node, at most {@link #MAX_SEEN} remembered (least recently used forgotten, and then
 * noticed again: one notice more, harmless).
 */
public final class NewSeriesNotices {

    static final long MAX_SEEN = 1_000_000;
    private static final Cache<Long, Boolean> SEEN = Caffeine.newBuilder().maximumSize(MAX_SEEN).build();

    private NewSeriesNotices() {
    }

    /** The notices of the records' series not seen before, sent when {@code conn}'s transaction commits. */
    public static Uni<Void> notice(SqlConnection conn, List<SampleBatch> records) {
        String[] tokens = tokens(records);
        if (tokens.length == 0) {
            return Uni.createFrom().voidItem();
        }
        return conn.preparedQuery("SELECT pg_notify('" + ChangeNotices.CHANNEL + "', t) FROM unnest($1::text[]) t")
                .execute(Tuple.of((Object) tokens)).replaceWithVoid();
    }

    /** The tokens of the records' new series (each series then counts as seen). */
    static String[] tokens(List<SampleBatch> records) {
        Set<String> out = new TreeSet<>();
        for (SampleBatch r : records) {
            String node = r.node() == null ? "" : r.node();
            for (MetricSamples.Series s : r.series()) {
                long id = (s.labels() == null ? 0 : s.labels().hashCode()) * 0x9E3779B97F4A7C15L + s.name().hashCode();
                id = id * 0x9E3779B97F4A7C15L + node.hashCode();
                if (SEEN.asMap().putIfAbsent(id, Boolean.TRUE) != null) {
                    continue;
                }
                if (!node.isEmpty()) {
                    out.add("node:" + node);
                }
                String pod = s.labels() == null ? null : s.labels().get(SeriesLabels.POD);
                if (pod != null && !pod.isEmpty()) {
                    out.add("pod:" + pod);
                }
            }
        }
        return out.toArray(String[]::new);
    }

    /** Forgets the series seen (tests). */
    static void forget() {
        SEEN.invalidateAll();
    }
}
