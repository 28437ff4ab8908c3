package io.jobmon.contracts.partitions;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The time partitions of one range-partitioned table of the current schema: {@code <parent>_pYYYYMMDD} by UTC day or
 * {@code <parent>_pYYYYMM} by month, created on demand (remembered, so a partition is created once per process) and
 * dropped by their start. Replicas creating the same partition at once both succeed: the loser's "already exists"
 * (SQLSTATE 42P07, or 23505 on the catalog's unique index) means the winner made it; any other error fails (ADR 0012).
 */
public final class PartitionedTable {

    public enum Period {
        DAY(DateTimeFormatter.ofPattern("yyyyMMdd")), MONTH(DateTimeFormatter.ofPattern("yyyyMM"));

        final DateTimeFormatter suffix;

        Period(DateTimeFormatter suffix) {
            this.suffix = suffix;
        }
    }

    /** What a creator gets when another made the same partition first: duplicate_table, unique_violation. */
    static final Set<String> CREATED_CONCURRENTLY = Set.of("42P07", "23505");
    private static final String LIST = "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid"
            + " JOIN pg_class p ON p.oid = i.inhparent WHERE p.relname = $1"
            + " AND p.relnamespace = to_regnamespace(current_schema())::oid";

    private final Pool pool;
    private final String parent;
    private final Period period;
    private final Function<LocalDate, String> bound;
    private final List<String> afterCreate;
    private final Set<LocalDate> known = ConcurrentHashMap.newKeySet();

    /**
     * @param bound the SQL literal of the partition key at the start of a day (a period's first day)
     * @param afterCreate statements run on each new partition, {@code %s} standing for its name (idempotent: run
     *     also when another replica created it)
     */
    public PartitionedTable(Pool pool, String parent, Period period, Function<LocalDate, String> bound,
            String... afterCreate) {
        this.pool = pool;
        this.parent = parent;
        this.period = period;
        this.bound = bound;
        this.afterCreate = List.of(afterCreate);
    }

    /** The bound of a {@code timestamptz} key: the day's start in UTC. */
    public static String timestampBound(LocalDate d) {
        return "'" + d + "T00:00:00Z'";
    }

    /** The bound of a {@code date} key. */
    public static String dateBound(LocalDate d) {
        return "'" + d + "'";
    }

    /** The bound of an epoch-milliseconds key. */
    public static String epochMsBound(LocalDate d) {
        return Long.toString(d.atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli());
    }

    public static LocalDate day(Instant t) {
        return LocalDate.ofInstant(t, ZoneOffset.UTC);
    }

    /** The first day of the partition holding {@code day}. */
    public LocalDate start(LocalDate day) {
        return period == Period.MONTH ? day.withDayOfMonth(1) : day;
    }

    /** The partition holding {@code day}. */
    public String name(LocalDate day) {
        return parent + "_p" + period.suffix.format(start(day));
    }

    public Uni<Void> ensure(LocalDate day) {
        return ensure(List.of(day));
    }

    /** Makes sure the partitions holding these days exist, creating the missing ones oldest first. */
    public Uni<Void> ensure(Collection<LocalDate> days) {
        Set<LocalDate> starts = new TreeSet<>();
        for (LocalDate d : days) {
            LocalDate s = start(d);
            if (!known.contains(s)) {
                starts.add(s);
            }
        }
        if (starts.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return Multi.createFrom().iterable(starts).onItem().transformToUniAndConcatenate(this::create)
                .collect().last().replaceWithVoid();
    }

    private Uni<Void> create(LocalDate s) {
        LocalDate end = period == Period.MONTH ? s.plusMonths(1) : s.plusDays(1);
        String name = name(s);
        Uni<Void> made = pool.query("CREATE TABLE IF NOT EXISTS " + name + " PARTITION OF " + parent
                + " FOR VALUES FROM (" + bound.apply(s) + ") TO (" + bound.apply(end) + ")").execute().replaceWithVoid()
                .onFailure(PartitionedTable::createdConcurrently).recoverWithNull();
        for (String statement : afterCreate) {
            made = made.chain(() -> pool.query(statement.formatted(name)).execute().replaceWithVoid());
        }
        return made.invoke(() -> known.add(s));
    }

    /** Whether {@code e} says another session created the relation first (and nothing else). */
    public static boolean createdConcurrently(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof PgException pg && CREATED_CONCURRENTLY.contains(pg.getSqlState())) {
                return true;
            }
        }
        return false;
    }

    /** The first days of the partitions there are, oldest first. */
    public Uni<List<LocalDate>> starts() {
        String prefix = parent + "_p";
        int length = prefix.length() + (period == Period.MONTH ? 6 : 8);
        return pool.preparedQuery(LIST).execute(Tuple.of(parent)).map(rows -> {
            List<LocalDate> out = new ArrayList<>();
            for (Row r : rows) {
                String n = r.getString("relname");
                if (n.startsWith(prefix) && n.length() == length && n.substring(prefix.length()).chars()
                        .allMatch(Character::isDigit)) {
                    String digits = n.substring(prefix.length()) + (period == Period.MONTH ? "01" : "");
                    out.add(LocalDate.parse(digits, DateTimeFormatter.BASIC_ISO_DATE));
                }
            }
            out.sort(null);
            return out;
        });
    }

    /** Drops the partitions wholly before the one holding {@code keepFrom}; returns their names. */
    public Uni<List<String>> dropBefore(LocalDate keepFrom) {
        LocalDate oldestKept = start(keepFrom);
        return starts().chain(starts -> {
            List<LocalDate> drop = starts.stream().filter(s -> s.isBefore(oldestKept)).toList();
            return Multi.createFrom().iterable(drop).onItem()
                    .transformToUniAndConcatenate(s -> pool.query("DROP TABLE IF EXISTS " + name(s)).execute()
                            .invoke(() -> known.remove(s)))
                    .collect().asList().replaceWith(drop.stream().map(this::name).toList());
        });
    }

    /** Forgets that the partition holding {@code day} exists (it was dropped by other means). */
    public void forget(LocalDate day) {
        known.remove(start(day));
    }
}
