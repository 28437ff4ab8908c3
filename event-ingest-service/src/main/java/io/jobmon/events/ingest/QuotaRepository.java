package io.jobmon.events.ingest;

import io.jobmon.events.support.Times;
import io.jobmon.events.support.StoredJson;
import static io.jobmon.events.support.Times.ts;

import com.fasterxml.jackson.core.type.TypeReference;
import io.smallrye.mutiny.Uni;
import io.jobmon.events.k8s.EventView;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The event quota rows of a batch's jobs (read under the jobs' locks, written back when changed). A row that holds
 * only its first kept event objects ({@link QuotaRow#onlyFirsts}: most rows, one per event object and reason) is not
 * written: it is rebuilt from the job's stored events, which are those objects.
 */
@ApplicationScoped
public class QuotaRepository {

    private static final TypeReference<Map<String, Integer>> RECENT = new TypeReference<>() {
    };
    private static final String LOAD = "SELECT job_id, object_key, reason, first_uids, latest_uid, latest_created,"
            + " latest_time, latest_count, omitted_events, omitted_occurrences, recent::text AS recent FROM event_quota"
            + " WHERE job_id = ANY($1::text[])";
    /** The stored events of jobs, oldest first: the kept objects of the quota rows not written. */
    private static final String KEPT = "SELECT job_id, uid, object_kind, object_name, field_path, reason FROM event"
            + " WHERE job_id = ANY($1::text[]) ORDER BY created_at, uid";
    private static final String SAVE = "INSERT INTO event_quota AS q (job_id, object_key, reason, first_uids,"
            + " latest_uid, latest_created, latest_time, latest_count, omitted_events, omitted_occurrences, recent)"
            + " SELECT j, o, r, string_to_array(f, E'\\x1f'), lu, lc, lt, n, oe, oo, re::jsonb FROM unnest($1::text[],"
            + " $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[], $7::timestamptz[], $8::int[],"
            + " $9::int[], $10::bigint[], $11::text[]) AS x(j, o, r, f, lu, lc, lt, n, oe, oo, re)"
            + " ON CONFLICT (job_id, object_key, reason) DO UPDATE SET first_uids = EXCLUDED.first_uids,"
            + " latest_uid = EXCLUDED.latest_uid, latest_created = EXCLUDED.latest_created,"
            + " latest_time = EXCLUDED.latest_time, latest_count = EXCLUDED.latest_count,"
            + " omitted_events = EXCLUDED.omitted_events, omitted_occurrences = EXCLUDED.omitted_occurrences,"
            + " recent = EXCLUDED.recent";

    /**
     * @param jobIds the jobs whose quota to read
     * @param written those of them whose row was ever written (version above 0): only they can have stored events
     */
    public Uni<Map<String, QuotaRow>> load(SqlConnection conn, Collection<String> jobIds, Collection<String> written) {
        Uni<Map<String, QuotaRow>> stored = load(conn, jobIds);
        if (written.isEmpty()) {
            return stored;
        }
        Uni<RowSet<Row>> events = conn.preparedQuery(KEPT).execute(Tuple.of((Object) written.toArray(String[]::new)));
        return Uni.combine().all().unis(stored, events).asTuple().map(both -> {
            Map<String, QuotaRow> out = both.getItem1();
            Map<String, QuotaRow> rebuilt = new HashMap<>();
            for (Row r : both.getItem2()) {
                String job = r.getString("job_id");
                String objectKey = EventView.objectKey(r.getString("object_kind"), r.getString("object_name"),
                        r.getString("field_path"));
                String reason = r.getString("reason") == null ? "" : r.getString("reason");
                String key = QuotaRow.key(job, objectKey, reason);
                if (!out.containsKey(key)) {
                    rebuilt.computeIfAbsent(key, k -> QuotaRow.empty(job, objectKey, reason)).firstUids.add(r.getString("uid"));
                }
            }
            out.putAll(rebuilt);
            return out;
        });
    }

    private Uni<Map<String, QuotaRow>> load(SqlConnection conn, Collection<String> jobIds) {
        return conn.preparedQuery(LOAD).execute(Tuple.of((Object) jobIds.toArray(String[]::new))).map(rows -> {
            Map<String, QuotaRow> out = new HashMap<>();
            for (Row r : rows) {
                QuotaRow q = new QuotaRow(r.getString("job_id"), r.getString("object_key"), r.getString("reason"),
                        List.of(r.getArrayOfStrings("first_uids")), r.getString("latest_uid"),
                        Times.instant(r.getOffsetDateTime("latest_created")), Times.instant(r.getOffsetDateTime("latest_time")),
                        r.getInteger("latest_count"), r.getInteger("omitted_events"), r.getLong("omitted_occurrences"),
                        StoredJson.read(r.getString("recent"), RECENT));
                q.stored = true;
                out.put(q.key(), q);
            }
            return out;
        });
    }

    public Uni<Void> save(SqlConnection conn, Collection<QuotaRow> rows) {
        List<QuotaRow> dirty = rows.stream().filter(q -> q.dirty && !q.onlyFirsts()).toList();
        if (dirty.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        dirty.forEach(q -> q.stored = true); // (a failed batch keeps nothing in memory: its rows are read again)
        int n = dirty.size();
        String[] job = new String[n], obj = new String[n], reason = new String[n], firsts = new String[n],
                latest = new String[n], recent = new String[n];
        OffsetDateTime[] created = new OffsetDateTime[n], time = new OffsetDateTime[n];
        Integer[] count = new Integer[n], omitted = new Integer[n];
        Long[] occurrences = new Long[n];
        for (int i = 0; i < n; i++) {
            QuotaRow q = dirty.get(i);
            job[i] = q.jobId;
            obj[i] = q.objectKey;
            reason[i] = q.reason;
            firsts[i] = String.join("\u001f", q.firstUids);
            latest[i] = q.latestUid;
            created[i] = ts(q.latestCreated);
            time[i] = ts(q.latestTime);
            count[i] = q.latestCount;
            omitted[i] = q.omittedEvents;
            occurrences[i] = q.omittedOccurrences;
            recent[i] = StoredJson.json(q.recent);
        }
        return conn.preparedQuery(SAVE).execute(Tuple.from(List.of(job, obj, reason, firsts, latest, created, time,
                count, omitted, occurrences, recent))).replaceWithVoid();
    }
}
