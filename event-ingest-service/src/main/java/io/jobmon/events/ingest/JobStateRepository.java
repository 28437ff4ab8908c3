package io.jobmon.events.ingest;

import io.jobmon.events.support.StoredJson;
import com.fasterxml.jackson.core.type.TypeReference;
import io.jobmon.contracts.events.JobStatus;
import io.jobmon.events.k8s.PodView;
import io.jobmon.events.status.JobModel;
import io.jobmon.events.status.Signal;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Loads jobs with their pods for a batch, locking their rows so that batches of two consumers that touch the
 * same job (its pods may sit on different partitions) apply one after the other; writes them back.
 */
@ApplicationScoped
public class JobStateRepository {

    private static final TypeReference<Map<String, Signal>> SIGNALS = new TypeReference<>() {
    };
    private static final String ENSURE = "INSERT INTO job_state (job_id) SELECT j FROM unnest($1::text[]) AS j"
            + " ORDER BY j ON CONFLICT DO NOTHING";
    private static final String LOCK = "SELECT job_id, version FROM job_state WHERE job_id = ANY($1::text[])"
            + " ORDER BY job_id FOR UPDATE";
    private static final String ROWS = "SELECT job_id, cluster, status, reason, message, exit_code, sequence,"
            + " stop_requested, signals::text AS signals FROM job_state WHERE job_id = ANY($1::text[])";
    private static final String PODS = "SELECT job_id, view::text AS view FROM pod_state WHERE job_id = ANY($1::text[])";
    private static final String SAVE = "UPDATE job_state j SET cluster = u.cluster, status = u.status,"
            + " reason = u.reason, message = u.message, exit_code = u.exit_code, sequence = u.sequence,"
            + " stop_requested = u.stop, signals = u.signals::jsonb, version = j.version + 1, updated_at = now()"
            + " FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::bigint[],"
            + " $8::bool[], $9::text[]) AS u(job_id, cluster, status, reason, message, exit_code, sequence, stop, signals)"
            + " WHERE j.job_id = u.job_id";

    /** The jobs, with their pods, locked for the transaction; jobs never seen come back fresh. */
    public Uni<Map<String, JobModel>> lock(SqlConnection conn, Collection<String> jobIds) {
        return lockVersions(conn, jobIds).chain(versions -> load(conn, versions.keySet()));
    }

    /**
     * Locks the jobs' rows (created for jobs never seen) for the transaction, in id order so that two consumers
     * never deadlock.
     *
     * @return the stored version of each job: it changes with every {@link #save}
     */
    public Uni<Map<String, Long>> lockVersions(SqlConnection conn, Collection<String> jobIds) {
        return lockVersions(conn, jobIds, id -> false);
    }

    /**
     * The same, creating rows only for the jobs not {@code known} to have one: the rows of jobs a consumer applied
     * before exist, so their insert (a conflict per row) is skipped. A known job whose row is gone after all
     * (retention) is created and locked in a second round.
     */
    public Uni<Map<String, Long>> lockVersions(SqlConnection conn, Collection<String> jobIds, Predicate<String> known) {
        String[] ids = jobIds.stream().sorted().distinct().toArray(String[]::new);
        return lockRound(conn, ids, Arrays.stream(ids).filter(known.negate()).toArray(String[]::new)).chain(versions -> {
            if (versions.size() == ids.length) {
                return Uni.createFrom().item(versions);
            }
            String[] missing = Arrays.stream(ids).filter(id -> !versions.containsKey(id)).toArray(String[]::new);
            return lockRound(conn, missing, missing).map(more -> {
                if (more.size() != missing.length) {
                    throw new IllegalStateException("job rows vanished while locked: " + missing.length); // retried
                }
                versions.putAll(more);
                return versions;
            });
        });
    }

    /** Creates the rows of {@code create}, then locks those of {@code ids}: sent together, one round trip. */
    private static Uni<Map<String, Long>> lockRound(SqlConnection conn, String[] ids, String[] create) {
        Uni<Boolean> ensure = create.length == 0 ? Uni.createFrom().item(Boolean.FALSE)
                : conn.preparedQuery(ENSURE).execute(Tuple.of(create)).replaceWith(Boolean.TRUE);
        return Uni.combine().all().unis(ensure, conn.preparedQuery(LOCK).execute(Tuple.of((Object) ids))).asTuple()
                .map(both -> {
                    Map<String, Long> versions = new HashMap<>();
                    for (Row r : both.getItem2()) {
                        versions.put(r.getString("job_id"), r.getLong("version"));
                    }
                    return versions;
                });
    }

    /** The stored state of jobs whose rows this transaction has locked. */
    public Uni<Map<String, JobModel>> load(SqlConnection conn, Collection<String> jobIds) {
        Map<String, JobModel> jobs = new HashMap<>();
        if (jobIds.isEmpty()) {
            return Uni.createFrom().item(jobs);
        }
        String[] ids = jobIds.toArray(String[]::new);
        Map<String, Map<String, PodView>> pods = new HashMap<>();
        // Both statements go out together (pipelined on the connection): one round trip.
        return Uni.combine().all().unis(conn.preparedQuery(PODS).execute(Tuple.of((Object) ids)),
                conn.preparedQuery(ROWS).execute(Tuple.of((Object) ids))).asTuple()
                .map(both -> {
                    for (Row r : both.getItem1()) {
                        PodView p = StoredJson.read(r.getString("view"), PodView.class);
                        pods.computeIfAbsent(r.getString("job_id"), k -> new LinkedHashMap<>())
                                .put(p.namespace() + "/" + p.name(), p);
                    }
                    var rows = both.getItem2();
                    for (Row r : rows) {
                        String id = r.getString("job_id");
                        String status = r.getString("status");
                        jobs.put(id, new JobModel(id, r.getString("cluster"), pods.getOrDefault(id, Map.of()),
                                StoredJson.read(r.getString("signals"), SIGNALS), Boolean.TRUE.equals(r.getBoolean("stop_requested")),
                                status == null ? null : JobStatus.valueOf(status), r.getString("reason"),
                                r.getString("message"), r.getInteger("exit_code"), r.getLong("sequence")));
                    }
                    return jobs;
                });
    }

    /** Writes back the jobs that learnt something, raising their versions. */
    public Uni<Void> save(SqlConnection conn, Collection<JobModel> jobs) {
        var changed = jobs.stream().filter(JobModel::changed).toList();
        if (changed.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        int n = changed.size();
        String[] id = new String[n], cluster = new String[n], status = new String[n], reason = new String[n],
                message = new String[n], signals = new String[n];
        Integer[] exit = new Integer[n];
        Long[] seq = new Long[n];
        Boolean[] stop = new Boolean[n];
        for (int i = 0; i < n; i++) {
            JobModel j = changed.get(i);
            id[i] = j.jobId();
            cluster[i] = j.cluster();
            status[i] = j.status() == null ? null : j.status().name();
            reason[i] = j.reason();
            message[i] = j.message();
            exit[i] = j.exitCode();
            seq[i] = j.sequence();
            stop[i] = j.stopRequested();
            signals[i] = StoredJson.json(j.signals());
        }
        return conn.preparedQuery(SAVE).execute(Tuple.from(List.of(id, cluster, status, reason, message, exit, seq, stop, signals)))
                .replaceWithVoid();
    }
}
