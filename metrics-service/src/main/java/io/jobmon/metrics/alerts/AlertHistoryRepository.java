package io.jobmon.metrics.alerts;

import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** {@code alert_history}: every firing of an alert Alertmanager's webhook told of, with when it ended (V6). */
@ApplicationScoped
public class AlertHistoryRepository {

    /** Where a page of the newest-first list starts: after this alert. */
    public record After(Instant since, String id) {
    }

    private static final String UPSERT = "INSERT INTO alert_history AS h (fingerprint, starts_at, ends_at, status,"
            + " alertname, job_id, tenant, labels, annotations, updated_at)"
            + " SELECT * FROM UNNEST($1::text[], $2::timestamptz[], $3::timestamptz[], $4::text[], $5::text[],"
            + " $6::text[], $7::text[], $8::jsonb[], $9::jsonb[], $10::timestamptz[])"
            + " ON CONFLICT (fingerprint, starts_at) DO UPDATE SET ends_at = EXCLUDED.ends_at, status = EXCLUDED.status,"
            + " labels = EXCLUDED.labels, annotations = EXCLUDED.annotations, updated_at = EXCLUDED.updated_at"
            // a re-sent firing notification that arrives after the resolved one does not bring the alert back
            + " WHERE h.status <> 'resolved' OR EXCLUDED.status = 'resolved'";

    private final Pool pool;

    public AlertHistoryRepository(Pool pool) {
        this.pool = pool;
    }

    /** Stores the alerts of one notification (idempotent: Alertmanager re-sends). */
    public Uni<Void> record(List<Alert> alerts, Instant now) {
        if (alerts.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        int n = alerts.size();
        String[] fp = new String[n], status = new String[n], name = new String[n], job = new String[n],
                tenant = new String[n];
        OffsetDateTime[] starts = new OffsetDateTime[n], ends = new OffsetDateTime[n], at = new OffsetDateTime[n];
        JsonObject[] labels = new JsonObject[n], annotations = new JsonObject[n];
        for (int i = 0; i < n; i++) {
            Alert a = alerts.get(i);
            fp[i] = a.id();
            starts[i] = utc(a.since());
            ends[i] = a.endsAt() == null ? null : utc(a.endsAt());
            status[i] = a.state() == Alert.State.RESOLVED ? "resolved" : "firing";
            name[i] = a.alertname();
            job[i] = a.jobId();
            tenant[i] = a.tenant();
            labels[i] = new JsonObject(new HashMap<>(a.labels()));
            annotations[i] = new JsonObject(new HashMap<>(a.annotations()));
            at[i] = utc(now);
        }
        return pool.preparedQuery(UPSERT).execute(Tuple.tuple().addArrayOfString(fp).addArrayOfOffsetDateTime(starts)
                .addArrayOfOffsetDateTime(ends).addArrayOfString(status).addArrayOfString(name).addArrayOfString(job)
                .addArrayOfString(tenant).addArrayOfJsonObject(labels).addArrayOfJsonObject(annotations)
                .addArrayOfOffsetDateTime(at)).replaceWithVoid();
    }

    /**
     * Resolved alerts that ended at or after {@code since}, newest start first, after {@code after}: of one job
     * ({@code jobId}), else of the tenant and those without a tenant label ({@code tenant}; null: every tenant's).
     * The access rule is the caller's to apply.
     */
    public Uni<List<Alert>> resolved(String tenant, String jobId, Instant since, After after, int limit) {
        StringBuilder sql = new StringBuilder("SELECT fingerprint, starts_at, ends_at, labels, annotations"
                + " FROM alert_history WHERE status = 'resolved' AND ends_at >= $1");
        Tuple args = Tuple.of(utc(since));
        if (jobId != null) {
            args.addString(jobId);
            sql.append(" AND job_id = $").append(args.size());
        } else if (tenant != null) {
            args.addString(tenant);
            sql.append(" AND (tenant = $").append(args.size()).append(" OR tenant IS NULL)");
        }
        if (after != null) {
            args.addOffsetDateTime(utc(after.since())).addString(after.id());
            sql.append(" AND (starts_at, fingerprint) < ($").append(args.size() - 1).append(", $").append(args.size())
                    .append(")");
        }
        args.addInteger(limit);
        sql.append(" ORDER BY starts_at DESC, fingerprint DESC LIMIT $").append(args.size());
        return pool.preparedQuery(sql.toString()).execute(args).map(rows -> {
            List<Alert> out = new ArrayList<>();
            for (Row r : rows) {
                out.add(new Alert(r.getString("fingerprint"), Alert.State.RESOLVED, strings(r.getJsonObject("labels")),
                        strings(r.getJsonObject("annotations")), r.getOffsetDateTime("starts_at").toInstant(),
                        r.getOffsetDateTime("ends_at").toInstant(), List.of()));
            }
            return out;
        });
    }

    /** Forgets alerts that ended (or, never resolved, started) before {@code before}; how many. */
    public Uni<Integer> deleteOlderThan(Instant before) {
        return pool.preparedQuery("DELETE FROM alert_history WHERE COALESCE(ends_at, starts_at) < $1")
                .execute(Tuple.of(utc(before))).map(rows -> rows.rowCount());
    }

    private static Map<String, String> strings(JsonObject o) {
        return AlertmanagerClient.map(o);
    }

    private static OffsetDateTime utc(Instant t) {
        return t.atOffset(ZoneOffset.UTC);
    }
}
