package io.jobmon.events.ingest;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds the job of events whose producer did not name it: from the pods (and their owning Jobs) of the same
 * batch first, then from the stored pods.
 */
@ApplicationScoped
public class JobResolver {

    private static final String BY_POD = "SELECT p.cluster || '/' || p.namespace || '/' || p.name AS k, p.job_id"
            + " FROM pod_state p JOIN unnest($1::text[], $2::text[], $3::text[]) AS u(c, n, m)"
            + " ON p.cluster = u.c AND p.namespace = u.n AND p.name = u.m";
    private static final String BY_JOB = "SELECT DISTINCT p.cluster || '/' || p.namespace || '/' || p.k8s_job AS k, p.job_id"
            + " FROM pod_state p JOIN unnest($1::text[], $2::text[], $3::text[]) AS u(c, n, m)"
            + " ON p.cluster = u.c AND p.namespace = u.n AND p.k8s_job = u.m";

    private final SqlClient client;

    public JobResolver(io.vertx.mutiny.sqlclient.Pool pool) {
        this.client = pool;
    }

    public Uni<List<RawRecord>> resolve(List<RawRecord> records) {
        Map<String, String> pods = new HashMap<>();
        Map<String, String> k8sJobs = new HashMap<>();
        for (RawRecord r : records) {
            if (r.pod() != null && r.jobId() != null) {
                pods.put(r.objectKey(), r.jobId());
                if (r.pod().k8sJob() != null) {
                    k8sJobs.put(r.cluster() + "/" + r.pod().namespace() + "/" + r.pod().k8sJob(), r.jobId());
                }
            }
        }
        List<RawRecord> podLookups = new ArrayList<>();
        List<RawRecord> jobLookups = new ArrayList<>();
        for (RawRecord r : records) {
            if (r.event() != null && r.jobId() == null && !r.event().aboutNode()) {
                Map<String, String> index = r.event().aboutJob() ? k8sJobs : pods;
                if (!index.containsKey(r.objectKey())) {
                    (r.event().aboutJob() ? jobLookups : podLookups).add(r);
                }
            }
        }
        return lookup(BY_POD, podLookups, pods).chain(() -> lookup(BY_JOB, jobLookups, k8sJobs)).map(x -> {
            List<RawRecord> out = new ArrayList<>(records.size());
            for (RawRecord r : records) {
                if (r.event() != null && r.jobId() == null && !r.event().aboutNode()) {
                    out.add(r.withJobId((r.event().aboutJob() ? k8sJobs : pods).get(r.objectKey())));
                } else {
                    out.add(r);
                }
            }
            return out;
        });
    }

    private Uni<Void> lookup(String sql, List<RawRecord> wanted, Map<String, String> into) {
        if (wanted.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        String[] c = new String[wanted.size()], n = new String[wanted.size()], m = new String[wanted.size()];
        for (int i = 0; i < c.length; i++) {
            RawRecord r = wanted.get(i);
            c[i] = r.cluster();
            n[i] = r.event().objectNamespace() == null ? "" : r.event().objectNamespace();
            m[i] = r.event().objectName();
        }
        return client.preparedQuery(sql).execute(Tuple.of(c, n, m)).invoke(rows -> {
            for (Row row : rows) {
                into.put(row.getString("k"), row.getString("job_id"));
            }
        }).replaceWithVoid();
    }
}
