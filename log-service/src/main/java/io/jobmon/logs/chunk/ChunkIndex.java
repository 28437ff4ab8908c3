package io.jobmon.logs.chunk;

import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes chunks: their index rows and, through the {@link ChunkStore}, their bodies, in the caller's transaction. Where
 * the store {@link ChunkStore#keepsNewestInIndex keeps newest segments in the index}, the newest chunk of each stream
 * written keeps its newest segment in its row and the stream's older rows lose theirs (ADR 0047).
 */
@ApplicationScoped
public class ChunkIndex {

    private static final String IDS = "SELECT nextval('chunk_id_seq') AS id FROM generate_series(1, $1)";
    private static final String INSERT = "INSERT INTO chunk (id, day, job_id, kind, node, namespace, pod, container,"
            + " kafka_partition, min_offset, max_offset, min_time, max_time, lines, raw_bytes, stored_bytes, level, filter,"
            + " newest) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)";
    /** A stream's rows keeping a segment, of which only the newest (by last offset, then id) keeps it. */
    private static final String STREAM = " %1$s.pod = %2$s.pod AND %1$s.container = %2$s.container AND %1$s.node = %2$s.node"
            + " AND %1$s.kind = %2$s.kind AND %1$s.namespace = %2$s.namespace AND %1$s.kafka_partition = %2$s.kafka_partition";
    private static final String CLEAR = "UPDATE chunk c SET newest = NULL FROM unnest($1::text[], $2::text[], $3::text[],"
            + " $4::text[], $5::text[], $6::int[]) AS k(kind, node, namespace, pod, container, kafka_partition)"
            + " WHERE c.newest IS NOT NULL AND" + String.format(STREAM, "c", "k")
            + " AND EXISTS (SELECT 1 FROM chunk d WHERE d.newest IS NOT NULL AND" + String.format(STREAM, "d", "c")
            + " AND (d.max_offset, d.id) > (c.max_offset, c.id))";

    private final ChunkStore store;

    public ChunkIndex(ChunkStore store) {
        this.store = store;
    }

    /** A stream and the Kafka partition of its lines: a chunk is newest among those of its key. */
    private record Key(StreamKey stream, int partition) {
    }

    /** Writes the chunks in {@code day}'s partition (which must exist); @return their refs, in order. */
    public Uni<List<ChunkRef>> insert(SqlConnection conn, LocalDate day, List<NewChunk> chunks) {
        if (chunks.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        boolean keep = store.keepsNewestInIndex();
        Map<Key, NewChunk> newest = new HashMap<>();
        if (keep) {
            for (NewChunk c : chunks) {
                newest.merge(new Key(c.stream(), c.partition()), c,
                        (a, b) -> b.encoded().maxOffset() >= a.encoded().maxOffset() ? b : a);
            }
        }
        return conn.preparedQuery(IDS).execute(Tuple.of(chunks.size())).chain(idRows -> {
            List<ChunkRef> refs = new ArrayList<>(chunks.size());
            for (Row r : idRows) {
                refs.add(new ChunkRef(day, r.getLong("id")));
            }
            List<Tuple> rows = new ArrayList<>(chunks.size());
            List<ChunkStore.Body> bodies = new ArrayList<>(chunks.size());
            for (int i = 0; i < chunks.size(); i++) {
                NewChunk c = chunks.get(i);
                StreamKey s = c.stream();
                ChunkCodec.Encoded e = c.encoded();
                boolean kept = keep && newest.get(new Key(s, c.partition())) == c;
                rows.add(Tuple.tuple().addValue(refs.get(i).id()).addValue(day).addValue(s.jobId())
                        .addValue(String.valueOf(s.kind())).addValue(s.node()).addValue(s.namespace()).addValue(s.pod())
                        .addValue(s.container()).addValue(c.partition()).addValue(e.minOffset()).addValue(e.maxOffset())
                        .addValue(e.minTime()).addValue(e.maxTime()).addValue(e.lines()).addValue(e.rawBytes())
                        .addValue(e.body().length).addValue((short) c.level()).addValue(Buffer.buffer(e.filter()))
                        .addValue(kept ? Buffer.buffer(ChunkCodec.newestSegment(e)) : null));
                bodies.add(new ChunkStore.Body(refs.get(i), e.body()));
            }
            Uni<Void> written = conn.preparedQuery(INSERT).executeBatch(rows).replaceWithVoid();
            if (keep) {
                written = written.chain(() -> conn.preparedQuery(CLEAR).execute(streams(newest.keySet())).replaceWithVoid());
            }
            return written.chain(() -> store.put(conn, bodies)).replaceWith(refs);
        });
    }

    private static Tuple streams(Collection<Key> keys) {
        List<Key> k = List.copyOf(keys);
        return Tuple.of(k.stream().map(x -> String.valueOf(x.stream().kind())).toArray(String[]::new),
                k.stream().map(x -> x.stream().node()).toArray(String[]::new),
                k.stream().map(x -> x.stream().namespace()).toArray(String[]::new),
                k.stream().map(x -> x.stream().pod()).toArray(String[]::new),
                k.stream().map(x -> x.stream().container()).toArray(String[]::new))
                .addValue(k.stream().map(Key::partition).toArray(Integer[]::new));
    }
}
