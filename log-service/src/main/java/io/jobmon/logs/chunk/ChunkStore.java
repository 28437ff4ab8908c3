package io.jobmon.logs.chunk;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;

/**
 * Where chunk bodies live; the index stays in PostgreSQL (Loki's split of index and chunks). The default keeps
 * bodies in PostgreSQL, inside the transaction that writes their index rows ({@link PgChunkStore}). An object store
 * (MinIO, Ceph RGW: {@link S3ChunkStore}, ADR 0038) writes a body before that transaction commits and deletes one
 * after the transaction removing its row committed: a crash in between leaves an orphan body, never an index row
 * without its body; orphans are found by listing keys absent from the index ({@link #sweepOrphans}).
 */
public interface ChunkStore {

    /** A body to store under its chunk's key. */
    record Body(ChunkRef ref, byte[] bytes) {
    }

    /** Stores the bodies; {@code conn} is the transaction that writes their index rows. */
    Uni<Void> put(SqlConnection conn, List<Body> bodies);

    /** The bodies of these chunks (a missing one is absent from the map: removed since the index was read). */
    default Uni<Map<ChunkRef, byte[]>> get(List<ChunkRef> refs) {
        return get(refs, new int[refs.size()]);
    }

    /**
     * As {@link #get(List)}, but of the chunk {@code refs[i]} only its first {@code firstBytes[i]} bytes when that is
     * above 0 (a range read): a tail needs only the front of a body, where its newest segments are (ADR 0020).
     */
    Uni<Map<ChunkRef, byte[]>> get(List<ChunkRef> refs, int[] firstBytes);

    /** Removes the bodies; {@code conn} is the transaction that removes their index rows. */
    Uni<Void> delete(SqlConnection conn, List<ChunkRef> refs);

    /**
     * Whether the newest chunk of each stream keeps its newest segment in its index row (ADR 0047): where a body read
     * is a request of its own, so that a tail of the newest lines makes none. Not where bodies are rows beside the index.
     */
    default boolean keepsNewestInIndex() {
        return false;
    }

    /**
     * Groups of bodies a search fetches ahead of the one it decodes: 1 where a group is one query; more where each body
     * is a request of its own and its latency, not the bandwidth, is what a search waits for.
     */
    default int readAhead() {
        return 1;
    }

    /**
     * Removes bodies older than {@code grace} of the days from {@code since} on (null: all) whose chunk is not in the
     * index; @return how many. A store writing bodies in the index's transaction has none.
     */
    default Uni<Integer> sweepOrphans(Duration grace, LocalDate since) {
        return Uni.createFrom().item(0);
    }
}
