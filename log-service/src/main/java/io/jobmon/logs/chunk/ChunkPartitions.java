package io.jobmon.logs.chunk;

import io.jobmon.contracts.partitions.PartitionedTable;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;

/**
 * The day partitions of {@code chunk} and {@code chunk_body} ({@code chunk_pYYYYMMDD}, {@code chunk_body_pYYYYMMDD};
 * the UTC day a chunk was first written; contracts' {@link PartitionedTable}): created on demand and ahead, dropped
 * whole once empty.
 */
@ApplicationScoped
public class ChunkPartitions {

    private final Pool pool;
    private final PartitionedTable chunk;
    private final PartitionedTable body;

    public ChunkPartitions(Pool pool) {
        this.pool = pool;
        // zstd bodies and bloom filters do not compress: store them out of line as they are
        this.chunk = new PartitionedTable(pool, "chunk", PartitionedTable.Period.DAY, PartitionedTable::dateBound,
                "ALTER TABLE %s ALTER COLUMN filter SET STORAGE EXTERNAL");
        this.body = new PartitionedTable(pool, "chunk_body", PartitionedTable.Period.DAY, PartitionedTable::dateBound,
                "ALTER TABLE %s ALTER COLUMN body SET STORAGE EXTERNAL");
    }

    public static LocalDate day(Instant t) {
        return PartitionedTable.day(t);
    }

    public Uni<Void> ensure(LocalDate d) {
        return chunk.ensure(d).chain(() -> body.ensure(d));
    }

    /** The days that have partitions. */
    public Uni<List<LocalDate>> days() {
        return chunk.starts();
    }

    /** Drops the day's partitions if they hold no chunk; @return whether they were dropped. */
    public Uni<Boolean> dropIfEmpty(LocalDate d) {
        String c = chunk.name(d);
        return pool.withTransaction(conn -> conn.query("LOCK TABLE " + c + " IN ACCESS EXCLUSIVE MODE").execute()
                .chain(() -> conn.query("SELECT 1 FROM " + c + " LIMIT 1").execute())
                .chain(rows -> rows.size() > 0 ? Uni.createFrom().item(false)
                        : conn.query("DROP TABLE " + c).execute()
                                .chain(() -> conn.query("DROP TABLE IF EXISTS " + body.name(d)).execute())
                                .invoke(() -> {
                                    chunk.forget(d);
                                    body.forget(d);
                                }).replaceWith(true)));
    }

    public Uni<Void> ensureAll(List<LocalDate> days) {
        return Multi.createFrom().iterable(days).onItem().transformToUniAndConcatenate(this::ensure)
                .collect().last().replaceWithVoid();
    }
}
