package io.jobmon.logs.query;

import io.jobmon.logs.intake.Times;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Per pod/container and per system source totals, from the chunk index alone. Worker threads. */
@ApplicationScoped
public class Summaries {

    private static final String PODS = "SELECT pod, namespace, container, max(node) AS node, min(min_time) AS first,"
            + " max(max_time) AS last, sum(lines) AS lines, sum(raw_bytes) AS bytes FROM chunk"
            + " WHERE job_id = $1 AND kind = 'u' GROUP BY pod, namespace, container ORDER BY pod, container";
    private static final String SYSTEM = "SELECT node, container, min(min_time) AS first, max(max_time) AS last,"
            + " sum(lines) AS lines, sum(raw_bytes) AS bytes FROM chunk WHERE kind = 's' AND node = ANY($1::text[])"
            + " AND max_time >= $2 AND min_time < $3 GROUP BY node, container ORDER BY node, container";

    private final Pool pool;

    public Summaries(Pool pool) {
        this.pool = pool;
    }

    public List<PodsView.Pod> pods(String jobId) {
        return pool.preparedQuery(PODS).execute(Tuple.of(jobId)).map(rows -> {
            Map<String, List<Row>> byPod = new LinkedHashMap<>();
            for (Row r : rows) {
                byPod.computeIfAbsent(r.getString("namespace") + "/" + r.getString("pod"), k -> new ArrayList<>()).add(r);
            }
            List<PodsView.Pod> out = new ArrayList<>();
            byPod.values().forEach(list -> {
                List<PodsView.Container> containers = new ArrayList<>();
                long first = Long.MAX_VALUE;
                long last = Long.MIN_VALUE;
                long lines = 0;
                long bytes = 0;
                for (Row r : list) {
                    containers.add(new PodsView.Container(r.getString("container"), Times.instant(r.getLong("first")),
                            Times.instant(r.getLong("last")), r.getLong("lines"), r.getLong("bytes")));
                    first = Math.min(first, r.getLong("first"));
                    last = Math.max(last, r.getLong("last"));
                    lines += r.getLong("lines");
                    bytes += r.getLong("bytes");
                }
                Row r0 = list.get(0);
                String node = r0.getString("node");
                out.add(new PodsView.Pod(r0.getString("pod"), blank(r0.getString("namespace")), blank(node),
                        Times.instant(first), Times.instant(last), lines, bytes, containers));
            });
            return out;
        }).await().atMost(ChunkQueries.WAIT);
    }

    public List<PodsView.SystemSource> system(Scope s) {
        if (!s.system()) {
            return List.of();
        }
        return pool.preparedQuery(SYSTEM).execute(Tuple.of(s.nodes().toArray(String[]::new), s.systemFrom(), s.systemTo()))
                .map(rows -> {
                    List<PodsView.SystemSource> out = new ArrayList<>();
                    for (Row r : rows) {
                        out.add(new PodsView.SystemSource(r.getString("node"), r.getString("container"),
                                Times.instant(r.getLong("first")), Times.instant(r.getLong("last")), r.getLong("lines"),
                                r.getLong("bytes")));
                    }
                    return out;
                }).await().atMost(ChunkQueries.WAIT);
    }

    private static String blank(String s) {
        return s == null || s.isEmpty() ? null : s;
    }
}
