package io.jobmon.events.ingest;

import io.jobmon.contracts.partitions.PartitionedTable;
import io.jobmon.events.config.EventsConfig;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The day partitions of {@code events.event} ({@code event_pYYYYMMDD}, UTC days of the event's creation; contracts'
 * {@link PartitionedTable}): created ahead by the daily maintenance and on demand for the days a batch needs; dropped
 * past retention.
 */
@ApplicationScoped
public class EventPartitions {

    private final EventsConfig config;
    private final Clock clock;
    private final PartitionedTable table;

    public EventPartitions(Pool pool, EventsConfig config) {
        this.config = config;
        this.clock = Clock.systemUTC();
        this.table = new PartitionedTable(pool, "event", PartitionedTable.Period.DAY, PartitionedTable::timestampBound);
    }

    /** The first instant whose events are still kept. */
    public Instant retentionStart(Instant now) {
        return day(now).minusDays(config.retentionDays() - 1L).atStartOfDay(ZoneOffset.UTC).toInstant();
    }

    public Instant retentionStart() {
        return retentionStart(clock.instant());
    }

    /** Makes sure the partitions of these event creation times exist. */
    public Uni<Void> ensureFor(Collection<Instant> createdAts) {
        List<LocalDate> days = new ArrayList<>(createdAts.size());
        for (Instant t : createdAts) {
            days.add(day(t));
        }
        return ensure(days);
    }

    public Uni<Void> ensure(Collection<LocalDate> days) {
        return table.ensure(days);
    }

    /** Creates today's and the next days' partitions, drops those wholly before the retention window. */
    public Uni<List<String>> maintain(Instant now) {
        List<LocalDate> ahead = new ArrayList<>();
        for (int i = 0; i <= config.partitionsAhead(); i++) {
            ahead.add(day(now).plusDays(i));
        }
        return ensure(ahead).chain(() -> table.dropBefore(day(retentionStart(now))));
    }

    static LocalDate day(Instant t) {
        return PartitionedTable.day(t);
    }
}
