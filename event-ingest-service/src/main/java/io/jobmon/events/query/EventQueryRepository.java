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

/** Reads a job's events (with its nodes' events) in time order, one keyset page at a time. */
@ApplicationScoped
public class EventQueryRepository {

    /**
     * The job's events and, unless one pod is asked for, the events of the nodes its pods ran on while they ran there
     * (from 10 minutes before a pod was created on the node until 2 minutes after its containers ended, or it was
     * deleted), flagged
     * with the node: one keyset page over both, by (last time, uid).
     */
    private static final String PAGE = "WITH placement AS (SELECT p.cluster, p.view->>'nodeName' AS node,"
            + " min(coalesce((p.view->>'createdAt')::timestamptz, p.updated_at)) - interval '10 minutes' AS since,"
            + " max(CASE WHEN p.deleted OR p.view->>'phase' IN ('Succeeded', 'Failed')"
            + " THEN coalesce((SELECT max((c->>'finishedAt')::timestamptz) FROM jsonb_array_elements(p.view->'containers')"
            + " c WHERE (c->>'init')::boolean IS NOT TRUE), (p.view->>'deletionTimestamp')::timestamptz, p.updated_at)"
            + " + interval '2 minutes' ELSE 'infinity'::timestamptz END) AS until"
            + " FROM pod_state p WHERE p.job_id = $1 AND p.view->>'nodeName' IS NOT NULL GROUP BY 1, 2)"
            + " SELECT * FROM (SELECT e.cluster, e.uid, e.namespace, e.object_kind, e.object_name, e.field_path,"
            + " e.type, e.reason, e.message, e.count, e.first_time, e.last_time, e.source, q.omitted_events,"
            + " q.omitted_occurrences, NULL::text AS node FROM event e"
            + " LEFT JOIN event_quota q ON q.job_id = e.job_id AND q.latest_uid = e.uid"
            + " WHERE e.job_id = $1 AND ($2::timestamptz IS NULL OR e.last_time >= $2)"
            + " AND ($3::timestamptz IS NULL OR e.last_time < $3) AND ($4::text IS NULL OR e.type = $4)"
            + " AND ($5::text IS NULL OR e.reason = $5)"
            + " AND ($6::text IS NULL OR (e.object_kind = 'Pod' AND e.object_name = $6))"
            + " AND ($7::timestamptz IS NULL OR (e.last_time, e.uid) > ($7, $8::text))"
            + " UNION ALL SELECT n.cluster, n.uid, n.namespace, 'Node', n.node, NULL, n.type, n.reason, n.message,"
            + " n.count, n.first_time, n.last_time, n.source, NULL, NULL, n.node FROM node_event n"
            + " JOIN placement pl ON n.cluster = pl.cluster AND n.node = pl.node"
            + " AND n.last_time >= pl.since AND n.last_time <= pl.until"
            + " WHERE $6::text IS NULL AND ($2::timestamptz IS NULL OR n.last_time >= $2)"
            + " AND ($3::timestamptz IS NULL OR n.last_time < $3) AND ($4::text IS NULL OR n.type = $4)"
            + " AND ($5::text IS NULL OR n.reason = $5)"
            + " AND ($7::timestamptz IS NULL OR (n.last_time, n.uid) > ($7, $8::text))) x"
            + " ORDER BY x.last_time, x.uid LIMIT $9";

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
                omitted == null || omitted == 0 ? null : new EventItem.Omitted(omitted, r.getLong("omitted_occurrences")),
                r.getString("node"));
    }
}
