package io.jobmon.logs.chunk;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The day partitions of {@code chunk} and {@code chunk_body} ({@code chunk_pYYYYMMDD}, {@code chunk_body_pYYYYMMDD};
 * the UTC day a chunk was first written): created on demand and ahead, dropped whole once empty.
 */
@ApplicationScoped
public class ChunkPartitions {

    private static final DateTimeFormatter SUFFIX = DateTimeFormatter.ofPattern("'_p'yyyyMMdd");
    private static final String LIST = "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid"
            + " JOIN pg_class p ON p.oid = i.inhparent JOIN pg_namespace n ON n.oid = p.relnamespace"
            + " WHERE n.nspname = current_schema() AND p.relname = 'chunk'";

    private final Pool pool;
    private final Set<LocalDate> known = ConcurrentHashMap.newKeySet();

    public ChunkPartitions(Pool pool) {
        this.pool = pool;
    }

    public static LocalDate day(Instant t) {
        return LocalDate.ofInstant(t, ZoneOffset.UTC);
    }

    public Uni<Void> ensure(LocalDate d) {
        if (known.contains(d)) {
            return Uni.createFrom().voidItem();
        }
        String range = " FOR VALUES FROM ('" + d + "') TO ('" + d.plusDays(1) + "')";
        String suffix = SUFFIX.format(d);
        return pool.query("CREATE TABLE IF NOT EXISTS chunk" + suffix + " PARTITION OF chunk" + range).execute()
                .chain(() -> pool.query("CREATE TABLE IF NOT EXISTS chunk_body" + suffix + " PARTITION OF chunk_body" + range).execute())
                // zstd bodies and bloom filters do not compress: store them out of line as they are
                .chain(() -> pool.query("ALTER TABLE chunk_body" + suffix + " ALTER COLUMN body SET STORAGE EXTERNAL").execute())
                .chain(() -> pool.query("ALTER TABLE chunk" + suffix + " ALTER COLUMN filter SET STORAGE EXTERNAL").execute())
                .invoke(() -> known.add(d)).replaceWithVoid()
                // two replicas creating the same day at once: one wins, the other finds it there
                .onFailure().recoverWithUni(e -> pool.query("SELECT 1 FROM chunk" + suffix + " LIMIT 0").execute()
                        .invoke(() -> known.add(d)).replaceWithVoid());
    }

    /** The days that have partitions. */
    public Uni<List<LocalDate>> days() {
        return pool.query(LIST).execute().map(rows -> {
            List<LocalDate> out = new ArrayList<>();
            for (Row r : rows) {
                String name = r.getString("relname");
                if (name.matches("chunk_p\\d{8}")) {
                    out.add(LocalDate.parse(name.substring(7), DateTimeFormatter.BASIC_ISO_DATE));
                }
            }
            return out;
        });
    }

    /** Drops the day's partitions if they hold no chunk; @return whether they were dropped. */
    public Uni<Boolean> dropIfEmpty(LocalDate d) {
        String suffix = SUFFIX.format(d);
        return pool.withTransaction(conn -> conn.query("LOCK TABLE chunk" + suffix + " IN ACCESS EXCLUSIVE MODE").execute()
                .chain(() -> conn.query("SELECT 1 FROM chunk" + suffix + " LIMIT 1").execute())
                .chain(rows -> rows.size() > 0 ? Uni.createFrom().item(false)
                        : conn.query("DROP TABLE chunk" + suffix).execute()
                                .chain(() -> conn.query("DROP TABLE IF EXISTS chunk_body" + suffix).execute())
                                .invoke(() -> known.remove(d)).replaceWith(true)));
    }

    public Uni<Void> ensureAll(List<LocalDate> days) {
        return Multi.createFrom().iterable(days).onItem().transformToUniAndConcatenate(this::ensure)
                .collect().last().replaceWithVoid();
    }
}
