package io.jobmon.jobs.job.repository;

import com.fasterxml.jackson.core.type.TypeReference;
import io.jobmon.contracts.events.PodSummary;
import io.jobmon.jobs.job.model.PodRecord;
import io.jobmon.jobs.support.Json;
import io.jobmon.jobs.support.Times;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads and writes {@code jobs.job_pod}. */
@ApplicationScoped
public class PodRepository {

    private static final TypeReference<List<PodSummary.ContainerSummary>> CONTAINERS = new TypeReference<>() {
    };
    private static final TypeReference<List<PodSummary.Condition>> CONDITIONS = new TypeReference<>() {
    };

    /** Inserts or updates the given pods in one statement, however many there are. */
    public Uni<Void> upsert(SqlClient db, String jobId, List<PodSummary> pods, Instant at) {
        if (pods == null || pods.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        int n = pods.size();
        String[] names = new String[n];
        String[] namespaces = new String[n];
        String[] nodes = new String[n];
        String[] phases = new String[n];
        String[] reasons = new String[n];
        String[] containers = new String[n];
        String[] conditions = new String[n];
        for (int i = 0; i < n; i++) {
            PodSummary p = pods.get(i);
            names[i] = p.name();
            namespaces[i] = p.namespace();
            nodes[i] = p.node();
            phases[i] = p.phase();
            reasons[i] = p.reason();
            containers[i] = Json.write(p.containers() == null ? List.of() : p.containers());
            conditions[i] = p.conditions() == null || p.conditions().isEmpty() ? null : Json.write(p.conditions());
        }
        return db.preparedQuery("INSERT INTO job_pod (job_id, name, namespace, node, phase, reason, containers, "
                + "conditions, updated_at) SELECT $1, t.n, t.ns, t.nd, t.ph, t.rs, t.c::jsonb, t.co::jsonb, $8 "
                + "FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $9::text[]) "
                + "AS t(n, ns, nd, ph, rs, c, co) WHERE t.n IS NOT NULL "
                + "ON CONFLICT (job_id, name) DO UPDATE SET namespace = coalesce(excluded.namespace, job_pod.namespace), "
                + "node = coalesce(excluded.node, job_pod.node), phase = excluded.phase, reason = excluded.reason, "
                + "containers = excluded.containers, conditions = coalesce(excluded.conditions, job_pod.conditions), "
                + "updated_at = excluded.updated_at")
                .execute(Tuple.from(new Object[] {jobId, names, namespaces, nodes, phases, reasons, containers,
                        Times.db(at), conditions}))
                .replaceWithVoid();
    }

    /** One page of pods ordered by name, after {@code afterName} (exclusive) when given. */
    public Uni<List<PodRecord>> page(SqlClient db, String jobId, String afterName, int limit) {
        String sql = "SELECT job_id, name, namespace, node, phase, reason, containers::text AS containers, "
                + "conditions::text AS conditions, updated_at "
                + "FROM job_pod WHERE job_id = $1 AND ($2::text IS NULL OR name > $2) ORDER BY name LIMIT $3";
        return db.preparedQuery(sql).execute(Tuple.of(jobId, afterName, limit))
                .map(rows -> JobRepository.list(rows, PodRepository::map));
    }

    /** Pods by phase, e.g. {@code {Running=1998, Pending=2}}. */
    public Uni<Map<String, Integer>> countByPhase(SqlClient db, String jobId) {
        return db.preparedQuery("SELECT coalesce(phase, 'Unknown') AS phase, count(*) AS n FROM job_pod "
                + "WHERE job_id = $1 GROUP BY 1 ORDER BY 1").execute(Tuple.of(jobId))
                .map(rows -> {
                    Map<String, Integer> out = new LinkedHashMap<>();
                    rows.forEach(r -> out.put(r.getString("phase"), r.getLong("n").intValue()));
                    return out;
                });
    }

    /** Pod names and distinct nodes, for the snapshot. */
    public Uni<PodsAndNodes> namesAndNodes(SqlClient db, String jobId) {
        return db.preparedQuery("SELECT coalesce(array_agg(name ORDER BY name), '{}') AS pods, "
                + "coalesce(array_agg(DISTINCT node) FILTER (WHERE node IS NOT NULL), '{}') AS nodes "
                + "FROM job_pod WHERE job_id = $1").execute(Tuple.of(jobId))
                .map(rows -> {
                    Row r = rows.iterator().next();
                    return new PodsAndNodes(JobRows.strings(r.getArrayOfStrings("pods")),
                            JobRows.strings(r.getArrayOfStrings("nodes")));
                });
    }

    private static PodRecord map(Row r) {
        return new PodRecord(r.getString("job_id"), r.getString("name"), r.getString("namespace"), r.getString("node"),
                r.getString("phase"), r.getString("reason"), Json.read(r.getString("containers"), CONTAINERS),
                r.getString("conditions") == null ? null : Json.read(r.getString("conditions"), CONDITIONS),
                Times.instant(r.getOffsetDateTime("updated_at")));
    }

    public record PodsAndNodes(List<String> pods, List<String> nodes) {
    }
}
