package io.jobmon.events.query;

import io.jobmon.contracts.api.Page;
import io.jobmon.events.support.Times;
import static io.jobmon.events.support.Times.instant;
import static io.jobmon.events.support.Times.ts;

import io.jobmon.contracts.api.Page;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;

/** Reads a job's events in time order, one keyset page at a time. */
@ApplicationScoped
public class EventQueryRepository {

    private static final String PAGE = "SELECT e.cluster, e.uid, e.namespace, e.object_kind, e.object_name, e.field_path,"
            + " e.type, e.reason, e.message, e.count, e.first_time, e.last_time, e.source, q.omitted_events,"
            + " q.omitted_occurrences FROM event e"
            + " LEFT JOIN event_quota q ON q.job_id = e.job_id AND q.latest_uid = e.uid"
            + " WHERE e.job_id = $1 AND ($2::timestamptz IS NULL OR e.last_time >= $2)"
            + " AND ($3::timestamptz IS NULL OR e.last_time < $3) AND ($4::text IS NULL OR e.type = $4)"
            + " AND ($5::text IS NULL OR e.reason = $5)"
            + " AND ($6::text IS NULL OR (e.object_kind = 'Pod' AND e.object_name = $6))"
            + " AND ($7::timestamptz IS NULL OR (e.last_time, e.uid) > ($7, $8::text))"
            + " ORDER BY e.last_time, e.uid LIMIT $9";

    private final Pool pool;

    public EventQueryRepository(Pool pool) {
        this.pool = pool;
    }

    public Uni<Page<EventItem>> page(String jobId, EventFilter f) {
        Tuple args = Tuple.tuple().addValue(jobId).addValue(ts(f.from())).addValue(ts(f.to())).addValue(f.type())
                .addValue(f.reason()).addValue(f.pod()).addValue(ts(f.afterTime())).addValue(f.afterUid())
                .addValue(f.limit() + 1);
        return pool.preparedQuery(PAGE).execute(args).map(rows -> {
            List<EventItem> items = new ArrayList<>();
            String lastUid = null;
            String next = null;
            for (Row r : rows) {
                if (items.size() == f.limit()) {
                    EventItem last = items.get(items.size() - 1);
                    next = EventFilter.cursor(last.lastTime(), lastUid);
                    break;
                }
                items.add(item(r));
                lastUid = r.getString("uid");
            }
            return new Page<>(items, next);
        });
    }

    private static EventItem item(Row r) {
        String kind = r.getString("object_kind");
        Integer omitted = r.getInteger("omitted_events");
        return new EventItem(instant(r.getOffsetDateTime("last_time")), r.getString("type"), r.getString("reason"),
                null, null, r.getString("message"), r.getInteger("count"), instant(r.getOffsetDateTime("first_time")),
                instant(r.getOffsetDateTime("last_time")), "Pod".equals(kind) ? r.getString("object_name") : null,
                new EventItem.InvolvedObject(kind, r.getString("object_name"), r.getString("namespace"),
                        r.getString("field_path")),
                r.getString("source"), r.getString("cluster"),
                omitted == null || omitted == 0 ? null : new EventItem.Omitted(omitted, r.getLong("omitted_occurrences")));
    }
}
