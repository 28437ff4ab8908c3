package io.jobmon.logs.chunk;

import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/** Writes chunks: their index rows and, through the {@link ChunkStore}, their bodies, in the caller's transaction. */
@ApplicationScoped
public class ChunkIndex {

    private static final String IDS = "SELECT nextval('chunk_id_seq') AS id FROM generate_series(1, $1)";
    private static final String INSERT = "INSERT INTO chunk (id, day, job_id, kind, node, namespace, pod, container,"
            + " kafka_partition, min_offset, max_offset, min_time, max_time, lines, raw_bytes, stored_bytes, level, filter)"
            + " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)";

    private final ChunkStore store;

    public ChunkIndex(ChunkStore store) {
        this.store = store;
    }

    /** Writes the chunks in {@code day}'s partition (which must exist); @return their refs, in order. */
    public Uni<List<ChunkRef>> insert(SqlConnection conn, LocalDate day, List<NewChunk> chunks) {
        if (chunks.isEmpty()) {
            return Uni.createFrom().item(List.of());
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
                rows.add(Tuple.tuple().addValue(refs.get(i).id()).addValue(day).addValue(s.jobId())
                        .addValue(String.valueOf(s.kind())).addValue(s.node()).addValue(s.namespace()).addValue(s.pod())
                        .addValue(s.container()).addValue(c.partition()).addValue(e.minOffset()).addValue(e.maxOffset())
                        .addValue(e.minTime()).addValue(e.maxTime()).addValue(e.lines()).addValue(e.rawBytes())
                        .addValue(e.body().length).addValue((short) c.level()).addValue(Buffer.buffer(e.filter())));
                bodies.add(new ChunkStore.Body(refs.get(i), e.body()));
            }
            return conn.preparedQuery(INSERT).executeBatch(rows)
                    .chain(() -> store.put(conn, bodies))
                    .replaceWith(refs);
        });
    }
}
