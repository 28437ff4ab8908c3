package io.jobmon.metrics.store;

import io.jobmon.metrics.store.codec.HeadCodec;
import io.jobmon.metrics.store.codec.Points;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;

/** Head blocks: what a batch wrote for one node and window, until compaction makes chunks of it. */
@ApplicationScoped
public class HeadRepository {

    private static final String INSERT = "INSERT INTO head_block (node, window_ms, min_ms, max_ms, samples, body)"
            + " SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::bigint[], $5::int[], $6::bytea[])";
    private static final String WINDOWS = "INSERT INTO head_window AS w (node, window_ms, max_ms)"
            + " SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[]) ON CONFLICT (node, window_ms)"
            + " DO UPDATE SET max_ms = greatest(w.max_ms, EXCLUDED.max_ms)";

    /** The samples of one node and window from one batch, encoded. */
    public record Block(String node, long windowMs, long minMs, long maxMs, int samples, byte[] body) {

        /** Encodes the samples (CPU work: done off the event loop, before the transaction). */
        public static Block of(String node, long windowMs, Map<Long, Points> series) {
            long min = Long.MAX_VALUE;
            long max = Long.MIN_VALUE;
            int count = 0;
            for (Points p : series.values()) {
                for (int k = 0; k < p.n; k++) {
                    min = Math.min(min, p.t[k]);
                    max = Math.max(max, p.t[k]);
                }
                count += p.n;
            }
            return new Block(node, windowMs, min, max, count, HeadCodec.encode(series));
        }
    }

    public Uni<Void> insert(SqlClient conn, List<Block> blocks) {
        if (blocks.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        int n = blocks.size();
        String[] nodes = new String[n];
        Long[] windows = new Long[n];
        Long[] mins = new Long[n];
        Long[] maxs = new Long[n];
        Integer[] counts = new Integer[n];
        io.vertx.core.buffer.Buffer[] bodies = new io.vertx.core.buffer.Buffer[n];
        for (int i = 0; i < n; i++) {
            Block b = blocks.get(i);
            nodes[i] = b.node();
            windows[i] = b.windowMs();
            mins[i] = b.minMs();
            maxs[i] = b.maxMs();
            counts[i] = b.samples();
            bodies[i] = io.vertx.core.buffer.Buffer.buffer(b.body());
        }
        // head_window before the blocks: its row lock orders this batch against a compaction of the same window
        return conn.preparedQuery(WINDOWS).execute(Tuple.of(nodes, windows, maxs))
                .chain(() -> conn.preparedQuery(INSERT).execute(Tuple.tuple().addArrayOfString(nodes)
                        .addArrayOfLong(windows).addArrayOfLong(mins).addArrayOfLong(maxs)
                        .addArrayOfInteger(counts).addValue(bodies)))
                .replaceWithVoid();
    }
}
