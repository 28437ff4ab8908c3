package io.jobmon.logs.attribution;

import io.jobmon.logs.intake.Times;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A job's identity as log-service knows it: its pods (the snapshots' {@code job_pod}), their UIDs and container ids
 * ({@code pod_identity}, from the shippers' records of its lines) and the GPUs they held ({@code gpu_holding}).
 */
@ApplicationScoped
public class IdentityRepository {

    private static final String PODS = "SELECT p.pod, p.namespace, i.uid, i.container_id FROM job_pod p"
            + " LEFT JOIN pod_identity i ON i.pod = p.pod AND (p.namespace = '' OR i.namespace = p.namespace)"
            + " WHERE p.job_id = $1";
    private static final String HOLDINGS = "SELECT h.node, h.gpu, h.uuid, h.bus_id, h.namespace, h.pod, h.from_time, h.to_time"
            + " FROM gpu_holding h JOIN job_pod p ON h.pod = p.pod AND (p.namespace = '' OR h.namespace = p.namespace)"
            + " WHERE p.job_id = $1";

    private final Pool pool;

    public IdentityRepository(Pool pool) {
        this.pool = pool;
    }

    public Uni<JobIdentity> load(String jobId) {
        return pool.preparedQuery(PODS).execute(Tuple.of(jobId)).chain(pods -> {
            Map<String, Object[]> byPod = new LinkedHashMap<>();
            for (Row r : pods) {
                Object[] p = byPod.computeIfAbsent(r.getString("namespace") + "/" + r.getString("pod"),
                        k -> new Object[] {r.getString("namespace"), r.getString("pod"), new HashSet<String>(), new HashSet<String>()});
                add(p[2], r.getString("uid"));
                add(p[3], r.getString("container_id"));
            }
            List<JobIdentity.Pod> list = new ArrayList<>();
            byPod.values().forEach(p -> list.add(new JobIdentity.Pod((String) p[0], (String) p[1], set(p[2]), set(p[3]))));
            return pool.preparedQuery(HOLDINGS).execute(Tuple.of(jobId)).map(rows -> {
                List<JobIdentity.Holding> holdings = new ArrayList<>();
                for (Row r : rows) {
                    OffsetDateTime to = r.getOffsetDateTime("to_time");
                    holdings.add(new JobIdentity.Holding(r.getString("node"), r.getString("gpu"), r.getString("uuid"),
                            r.getString("bus_id"), r.getString("namespace"), r.getString("pod"),
                            Times.nanos(r.getOffsetDateTime("from_time").toInstant()),
                            to == null ? Long.MAX_VALUE : Times.nanos(to.toInstant())));
                }
                return new JobIdentity(list, holdings);
            });
        });
    }

    @SuppressWarnings("unchecked")
    private static void add(Object set, String v) {
        if (v != null && !v.isEmpty()) {
            ((Set<String>) set).add(v);
        }
    }

    @SuppressWarnings("unchecked")
    private static Set<String> set(Object set) {
        return Set.copyOf((Set<String>) set);
    }
}
