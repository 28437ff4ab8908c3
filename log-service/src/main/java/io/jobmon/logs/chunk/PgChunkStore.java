package io.jobmon.logs.chunk;

import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Chunk bodies in PostgreSQL ({@code chunk_body}, day partitions like the index): the default store ({@link ChunkStores}). */
public class PgChunkStore implements ChunkStore {

    private static final String PUT = "INSERT INTO chunk_body (day, id, body) VALUES ($1, $2, $3)";
    /** A body's front is read with {@code substring}: bodies are stored EXTERNAL, so only its first TOAST pieces. */
    private static final String GET = "SELECT day, id, CASE WHEN k.n > 0 THEN substring(body FROM 1 FOR k.n) ELSE body END"
            + " AS body FROM chunk_body b JOIN unnest($1::date[], $2::bigint[], $3::int[]) AS k(d, i, n)"
            + " ON b.day = k.d AND b.id = k.i";
    private static final String DELETE = "DELETE FROM chunk_body b USING unnest($1::date[], $2::bigint[]) AS k(d, i)"
            + " WHERE b.day = k.d AND b.id = k.i";

    private final Pool pool;

    public PgChunkStore(Pool pool) {
        this.pool = pool;
    }

    @Override
    public Uni<Void> put(SqlConnection conn, List<Body> bodies) {
        if (bodies.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        List<Tuple> rows = bodies.stream().map(b -> Tuple.of(b.ref().day(), b.ref().id(), Buffer.buffer(b.bytes()))).toList();
        return conn.preparedQuery(PUT).executeBatch(rows).replaceWithVoid();
    }

    @Override
    public Uni<Map<ChunkRef, byte[]>> get(List<ChunkRef> refs, int[] firstBytes) {
        if (refs.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        Integer[] n = new Integer[firstBytes.length];
        for (int i = 0; i < n.length; i++) {
            n[i] = firstBytes[i];
        }
        return pool.preparedQuery(GET).execute(keys(refs).addValue(n)).map(rows -> {
            Map<ChunkRef, byte[]> out = new HashMap<>();
            for (Row r : rows) {
                out.put(new ChunkRef(r.getLocalDate("day"), r.getLong("id")), r.getBuffer("body").getBytes());
            }
            return out;
        });
    }

    @Override
    public Uni<Void> delete(SqlConnection conn, List<ChunkRef> refs) {
        if (refs.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return conn.preparedQuery(DELETE).execute(keys(refs)).replaceWithVoid();
    }

    private static Tuple keys(List<ChunkRef> refs) {
        LocalDate[] days = refs.stream().map(ChunkRef::day).toArray(LocalDate[]::new);
        Long[] ids = refs.stream().map(ChunkRef::id).toArray(Long[]::new);
        return Tuple.of(days, ids);
    }
}
