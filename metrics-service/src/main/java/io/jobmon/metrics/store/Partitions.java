package io.jobmon.metrics.store;

import io.jobmon.contracts.partitions.PartitionedTable;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The time partitions of the chunk tables: {@code chunk} and {@code rollup_1m} by UTC day ({@code _pYYYYMMDD}),
 * {@code rollup_1h} by month ({@code _pYYYYMM}; contracts' {@link PartitionedTable}); created on demand and ahead,
 * dropped past retention.
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

    private final Map<Table, PartitionedTable> tables = new EnumMap<>(Table.class);

    public Partitions(Pool pool) {
        for (Table t : Table.values()) {
            tables.put(t, new PartitionedTable(pool, t.name, t.monthly ? PartitionedTable.Period.MONTH
                    : PartitionedTable.Period.DAY, PartitionedTable::epochMsBound));
        }
    }

    static LocalDate date(long ms) {
        return LocalDate.ofEpochDay(Math.floorDiv(ms, Resolution.DAY_MS));
    }

    /** Makes sure the partitions holding these start times exist. */
    public Uni<Void> ensure(Table t, Collection<Long> startMs) {
        List<LocalDate> days = new ArrayList<>(startMs.size());
        for (long ms : startMs) {
            days.add(date(ms));
        }
        return tables.get(t).ensure(days);
    }

    /** Drops the partitions wholly before {@code keepFromMs}; returns their names. */
    public Uni<List<String>> dropBefore(Table t, long keepFromMs) {
        return tables.get(t).dropBefore(date(keepFromMs));
    }
}
