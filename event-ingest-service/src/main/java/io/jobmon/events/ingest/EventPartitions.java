package io.jobmon.events.ingest;

import io.jobmon.events.config.EventsConfig;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
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

/**
 * The day partitions of {@code events.event} ({@code event_pYYYYMMDD}, UTC days of the event's creation):
 * created ahead by the daily maintenance and on demand for the days a batch needs; dropped past retention.
 */
@ApplicationScoped
public class EventPartitions {

    private static final DateTimeFormatter NAME = DateTimeFormatter.ofPattern("'event_p'yyyyMMdd");
    private static final String LIST = "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid"
            + " JOIN pg_class p ON p.oid = i.inhparent JOIN pg_namespace n ON n.oid = p.relnamespace"
            + " WHERE n.nspname = current_schema() AND p.relname = 'event'";

    private final Pool pool;
    private final EventsConfig config;
    private final Clock clock;
    private final Set<LocalDate> known = ConcurrentHashMap.newKeySet();

    public EventPartitions(Pool pool, EventsConfig config) {
        this.pool = pool;
        this.config = config;
        this.clock = Clock.systemUTC();
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
        Set<LocalDate> days = new TreeSet<>();
        for (Instant t : createdAts) {
            LocalDate d = day(t);
            if (!known.contains(d)) {
                days.add(d);
            }
        }
        return ensure(days);
    }

    public Uni<Void> ensure(Collection<LocalDate> days) {
        return Multi.createFrom().iterable(days).onItem()
                .transformToUniAndConcatenate(d -> pool.query(create(d)).execute().invoke(() -> known.add(d)))
                .collect().last().replaceWithVoid();
    }

    /** Creates today's and the next days' partitions, drops those wholly before the retention window. */
    public Uni<List<String>> maintain(Instant now) {
        List<LocalDate> ahead = new ArrayList<>();
        for (int i = 0; i <= config.partitionsAhead(); i++) {
            ahead.add(day(now).plusDays(i));
        }
        String oldestKept = NAME.format(day(retentionStart(now)));
        return ensure(ahead).chain(() -> pool.query(LIST).execute()).chain(rows -> {
            List<String> drop = new ArrayList<>();
            for (Row r : rows) {
                String name = r.getString("relname");
                if (name.matches("event_p\\d{8}") && name.compareTo(oldestKept) < 0) {
                    drop.add(name);
                }
            }
            return Multi.createFrom().iterable(drop).onItem()
                    .transformToUniAndConcatenate(n -> pool.query("DROP TABLE IF EXISTS " + n).execute()
                            .invoke(() -> known.remove(LocalDate.parse(n.substring(7), DateTimeFormatter.BASIC_ISO_DATE))))
                    .collect().asList().replaceWith(drop);
        });
    }

    private static String create(LocalDate d) {
        return "CREATE TABLE IF NOT EXISTS " + NAME.format(d) + " PARTITION OF event FOR VALUES FROM ('"
                + d + "T00:00:00Z') TO ('" + d.plusDays(1) + "T00:00:00Z')";
    }

    static LocalDate day(Instant t) {
        return LocalDate.ofInstant(t, ZoneOffset.UTC);
    }
}
