package io.jobmon.contracts.readmodel;

import io.jobmon.contracts.access.JobAccess;
import io.jobmon.contracts.access.Visibility;
import io.jobmon.contracts.events.JobSnapshot;
import io.jobmon.contracts.messaging.Envelopes;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code job_access} table of a service: applies {@code jobmon.job.changes} snapshots and answers who may
 * see a job. See the package documentation for the table and the wiring.
 */
public class JobAccessStore {

    private final SqlClient client;
    private final String upsert;
    private final String tombstone;
    private final String select;

    /**
     * @param client the service's reactive pool, or a transaction's connection to apply a snapshot together with
     *        the service's own writes; {@code job_access} is found through the connection's {@code search_path}
     */
    public JobAccessStore(SqlClient client) {
        this.client = client;
        String table = "job_access";
        this.upsert = "INSERT INTO " + table + " AS a (job_id, tenant, owner, project, visibility, shares, version, deleted)"
                + " VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (job_id) DO UPDATE SET tenant = EXCLUDED.tenant,"
                + " owner = EXCLUDED.owner, project = EXCLUDED.project, visibility = EXCLUDED.visibility,"
                + " shares = EXCLUDED.shares, version = EXCLUDED.version, deleted = EXCLUDED.deleted"
                + " WHERE a.version < EXCLUDED.version";
        this.tombstone = "UPDATE " + table + " SET deleted = TRUE WHERE job_id = $1";
        this.select = "SELECT tenant, owner, project, visibility, shares, deleted FROM " + table + " WHERE job_id = $1";
    }

    /** Stores the snapshot unless the stored one is as new or newer; {@code deleted} marks the job deleted. */
    public Uni<Void> apply(JobSnapshot s) {
        String visibility = s.visibility() == null ? Visibility.PRIVATE.name() : s.visibility().toUpperCase();
        String[] shares = s.shares() == null ? new String[0] : s.shares().toArray(String[]::new);
        return client.preparedQuery(upsert)
                .execute(Tuple.tuple().addValue(s.jobId()).addValue(s.tenant()).addValue(s.owner())
                        .addValue(orNull(s.project())).addValue(visibility).addValue(shares)
                        .addValue(s.version()).addValue(s.deleted()))
                .replaceWithVoid();
    }

    /** A tombstone on the compacted topic: the job is gone. */
    public Uni<Void> tombstone(String jobId) {
        return client.preparedQuery(tombstone).execute(Tuple.of(jobId)).replaceWithVoid();
    }

    /**
     * Applies one record of {@code jobmon.job.changes} as it comes off Kafka.
     *
     * @throws io.jobmon.contracts.events.InvalidRecordException (in the Uni) when the value is not a valid
     *         snapshot: the consumer's dead-letter queue takes it with this reason
     */
    public Uni<Void> applyRecord(String key, String value) {
        if (value == null) {
            return key == null ? Uni.createFrom().voidItem() : tombstone(key);
        }
        return Uni.createFrom().item(() -> Envelopes.JOB_SNAPSHOT.data(key, value)).chain(this::apply);
    }

    /** The job's access facts; empty when the job is unknown or deleted. */
    public Uni<Optional<JobAccess>> find(String jobId) {
        return client.preparedQuery(select).execute(Tuple.of(jobId)).map(JobAccessStore::first);
    }

    private static Optional<JobAccess> first(RowSet<Row> rows) {
        if (rows.size() == 0) {
            return Optional.empty();
        }
        Row r = rows.iterator().next();
        if (Boolean.TRUE.equals(r.getBoolean("deleted"))) {
            return Optional.empty();
        }
        String[] shares = r.getArrayOfStrings("shares");
        return Optional.of(new JobAccess(r.getString("owner"), r.getString("tenant"), r.getString("project"),
                visibility(r.getString("visibility")), shares == null ? Set.of() : Set.of(shares)));
    }

    private static Visibility visibility(String v) {
        try {
            return v == null ? Visibility.PRIVATE : Visibility.valueOf(v);
        } catch (IllegalArgumentException e) {
            return Visibility.PRIVATE;
        }
    }

    private static Object orNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
