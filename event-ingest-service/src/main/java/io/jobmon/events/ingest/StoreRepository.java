package io.jobmon.events.ingest;

import io.jobmon.events.support.Times;
import io.jobmon.events.support.StoredJson;
import static io.jobmon.events.support.Times.ts;

import io.jobmon.events.k8s.EventView;
import io.jobmon.events.k8s.PodView;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

/**
 * Multi-row writes of a batch's pods and events: one statement each, guarded by resourceVersion so that a
 * stale or repeated object changes nothing even when two writers race.
 */
@ApplicationScoped
public class StoreRepository {

    private static final String PODS = "INSERT INTO pod_state AS p (cluster, namespace, name, uid, job_id, k8s_job,"
            + " resource_version, deleted, view) SELECT c, n, m, u, j, k, rv, d, v::jsonb FROM unnest($1::text[],"
            + " $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::bool[], $9::text[])"
            + " AS x(c, n, m, u, j, k, rv, d, v) ON CONFLICT (cluster, namespace, name) DO UPDATE SET uid = EXCLUDED.uid,"
            + " job_id = EXCLUDED.job_id, k8s_job = EXCLUDED.k8s_job, resource_version = EXCLUDED.resource_version,"
            + " deleted = EXCLUDED.deleted, view = EXCLUDED.view, updated_at = now()"
            + " WHERE p.resource_version < EXCLUDED.resource_version";
    private static final String EVENTS = "INSERT INTO event AS e (cluster, uid, created_at, job_id, namespace,"
            + " name, object_kind, object_name, field_path, type, reason, message, count, first_time, last_time, source,"
            + " resource_version) SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::text[],"
            + " $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[],"
            + " $13::int[], $14::timestamptz[], $15::timestamptz[], $16::text[], $17::bigint[])"
            + " ON CONFLICT (cluster, uid, created_at) DO UPDATE SET type = EXCLUDED.type, reason = EXCLUDED.reason,"
            + " message = EXCLUDED.message, count = EXCLUDED.count, first_time = EXCLUDED.first_time,"
            + " last_time = EXCLUDED.last_time, resource_version = EXCLUDED.resource_version"
            + " WHERE e.resource_version < EXCLUDED.resource_version";
    private static final String NODE_EVENTS = "INSERT INTO node_event AS e (cluster, uid, node, created_at, namespace,"
            + " name, type, reason, message, count, first_time, last_time, source, resource_version) SELECT * FROM"
            + " unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[], $5::text[], $6::text[], $7::text[],"
            + " $8::text[], $9::text[], $10::int[], $11::timestamptz[], $12::timestamptz[], $13::text[], $14::bigint[])"
            + " ON CONFLICT (cluster, uid) DO UPDATE SET type = EXCLUDED.type, reason = EXCLUDED.reason,"
            + " message = EXCLUDED.message, count = EXCLUDED.count, first_time = EXCLUDED.first_time,"
            + " last_time = EXCLUDED.last_time, resource_version = EXCLUDED.resource_version"
            + " WHERE e.resource_version < EXCLUDED.resource_version";
    private static final String EVICT = "DELETE FROM event e USING unnest($1::text[], $2::timestamptz[])"
            + " AS d(uid, created) WHERE e.uid = d.uid AND e.created_at = d.created";

    public Uni<Void> pods(SqlConnection conn, List<BatchWrites.PodWrite> writes) {
        if (writes.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        int n = writes.size();
        String[] c = new String[n], ns = new String[n], name = new String[n], uid = new String[n], job = new String[n],
                k8sJob = new String[n], view = new String[n];
        Long[] rv = new Long[n];
        Boolean[] deleted = new Boolean[n];
        for (int i = 0; i < n; i++) {
            PodView p = writes.get(i).pod();
            c[i] = writes.get(i).cluster();
            ns[i] = p.namespace() == null ? "" : p.namespace();
            name[i] = p.name();
            uid[i] = p.uid();
            job[i] = p.jobId();
            k8sJob[i] = p.k8sJob();
            rv[i] = p.resourceVersion();
            deleted[i] = p.deleted();
            view[i] = StoredJson.json(p);
        }
        return conn.preparedQuery(PODS).execute(Tuple.from(List.of(c, ns, name, uid, job, k8sJob, rv, deleted, view)))
                .replaceWithVoid();
    }

    /** The columns every stored event has, for one multi-row statement. */
    private static final class EventColumns {
        final String[] uid, ns, name, type, reason, msg, source;
        final OffsetDateTime[] created, first, last;
        final Integer[] count;
        final Long[] rv;

        EventColumns(int n) {
            uid = new String[n];
            ns = new String[n];
            name = new String[n];
            type = new String[n];
            reason = new String[n];
            msg = new String[n];
            source = new String[n];
            created = new OffsetDateTime[n];
            first = new OffsetDateTime[n];
            last = new OffsetDateTime[n];
            count = new Integer[n];
            rv = new Long[n];
        }

        void set(int i, EventView e) {
            uid[i] = e.uid();
            created[i] = ts(e.createdAt());
            ns[i] = e.namespace();
            name[i] = e.name();
            type[i] = e.type();
            reason[i] = e.reason();
            msg[i] = e.message();
            count[i] = e.count();
            first[i] = ts(e.firstTime());
            last[i] = ts(e.lastTime());
            source[i] = e.source();
            rv[i] = e.resourceVersion();
        }
    }

    public Uni<Void> events(SqlConnection conn, List<BatchWrites.EventWrite> writes) {
        if (writes.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        int n = writes.size();
        EventColumns e = new EventColumns(n);
        String[] c = new String[n], job = new String[n], kind = new String[n], obj = new String[n], path = new String[n];
        for (int i = 0; i < n; i++) {
            EventView v = writes.get(i).event();
            e.set(i, v);
            c[i] = writes.get(i).cluster();
            job[i] = writes.get(i).jobId();
            kind[i] = v.objectKind();
            obj[i] = v.objectName();
            path[i] = v.fieldPath();
        }
        return conn.preparedQuery(EVENTS).execute(Tuple.from(List.of(c, e.uid, e.created, job, e.ns, e.name, kind, obj,
                path, e.type, e.reason, e.msg, e.count, e.first, e.last, e.source, e.rv))).replaceWithVoid();
    }

    /** Events about nodes, kept per node (no job), guarded by resourceVersion like the job's. */
    public Uni<Void> nodeEvents(SqlConnection conn, List<BatchWrites.NodeEventWrite> writes) {
        if (writes.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        int n = writes.size();
        EventColumns e = new EventColumns(n);
        String[] c = new String[n], node = new String[n];
        for (int i = 0; i < n; i++) {
            EventView v = writes.get(i).event();
            e.set(i, v);
            c[i] = writes.get(i).cluster();
            node[i] = v.objectName();
        }
        return conn.preparedQuery(NODE_EVENTS).execute(Tuple.from(List.of(c, e.uid, node, e.created, e.ns, e.name,
                e.type, e.reason, e.msg, e.count, e.first, e.last, e.source, e.rv))).replaceWithVoid();
    }

    public Uni<Void> evict(SqlConnection conn, List<BatchWrites.Eviction> evictions) {
        if (evictions.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        List<String> uids = new ArrayList<>();
        List<OffsetDateTime> created = new ArrayList<>();
        for (BatchWrites.Eviction e : evictions) {
            uids.add(e.uid());
            created.add(ts(e.createdAt()));
        }
        return conn.preparedQuery(EVICT).execute(Tuple.of(uids.toArray(String[]::new),
                created.toArray(OffsetDateTime[]::new))).replaceWithVoid();
    }
}
