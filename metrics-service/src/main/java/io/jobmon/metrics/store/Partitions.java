package io.jobmon.metrics.store;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The time partitions of the chunk tables: {@code chunk} and {@code rollup_1m} by UTC day ({@code _pYYYYMMDD}),
 * {@code rollup_1h} by month ({@code _pYYYYMM}); created on demand and ahead, dropped past retention.
 */
@ApplicationScoped
public class Partitions {

    public enum Table {
        CHUNK("chunk", false), ROLLUP_1M("rollup_1m", false), ROLLUP_1H("rollup_1h", true);

        final String name;
        final boolean monthly;

        Table(String name, boolean monthly) {
            this.name = name;
            this.monthly = monthly;
        }
    }

    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("yyyyMMdd");
    private static final DateTimeFormatter MONTH = DateTimeFormatter.ofPattern("yyyyMM");
    private static final String LIST = "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid"
            + " JOIN pg_class p ON p.oid = i.inhparent WHERE p.relname = $1"
            + " AND p.relnamespace = to_regnamespace(current_schema())::oid";

    private final Pool pool;
    private final Set<String> known = ConcurrentHashMap.newKeySet();

    public Partitions(Pool pool) {
        this.pool = pool;
    }

    static LocalDate date(long ms) {
        return LocalDate.ofEpochDay(Math.floorDiv(ms, Resolution.DAY_MS));
    }

    static LocalDate start(Table t, long ms) {
        LocalDate d = date(ms);
        return t.monthly ? d.withDayOfMonth(1) : d;
    }

    static String name(Table t, LocalDate start) {
        return t.name + "_p" + (t.monthly ? MONTH : DAY).format(start);
    }

    /** Makes sure the partitions holding these start times exist. */
    public Uni<Void> ensure(Table t, Collection<Long> startMs) {
        Set<LocalDate> starts = new TreeSet<>();
        for (long ms : startMs) {
            LocalDate s = start(t, ms);
            if (!known.contains(name(t, s))) {
                starts.add(s);
            }
        }
        return Multi.createFrom().iterable(starts).onItem().transformToUniAndConcatenate(s -> create(t, s))
                .collect().last().replaceWithVoid();
    }

    private Uni<Void> create(Table t, LocalDate s) {
        LocalDate end = t.monthly ? s.plusMonths(1) : s.plusDays(1);
        long from = s.atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
        long to = end.atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
        String name = name(t, s);
        return pool.query("CREATE TABLE IF NOT EXISTS " + name + " PARTITION OF " + t.name + " FOR VALUES FROM ("
                + from + ") TO (" + to + ")").execute()
                .onFailure().recoverWithUni(e -> pool.query("SELECT 1").execute()) // created concurrently by another replica
                .invoke(() -> known.add(name)).replaceWithVoid();
    }

    /** Drops the partitions wholly before {@code keepFromMs}; returns their names. */
    public Uni<List<String>> dropBefore(Table t, long keepFromMs) {
        String oldestKept = name(t, start(t, keepFromMs));
        return pool.preparedQuery(LIST).execute(io.vertx.mutiny.sqlclient.Tuple.of(t.name)).chain(rows -> {
            List<String> drop = new ArrayList<>();
            for (Row r : rows) {
                String n = r.getString("relname");
                if (n.startsWith(t.name + "_p") && n.length() == oldestKept.length() && n.compareTo(oldestKept) < 0) {
                    drop.add(n);
                }
            }
            return Multi.createFrom().iterable(drop).onItem()
                    .transformToUniAndConcatenate(n -> pool.query("DROP TABLE IF EXISTS " + n).execute()
                            .invoke(() -> known.remove(n)))
                    .collect().asList().replaceWith(drop);
        });
    }
}
