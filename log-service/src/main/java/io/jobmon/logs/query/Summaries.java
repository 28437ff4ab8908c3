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
    private final ChunkQueries queries;

    public Summaries(Pool pool, ChunkQueries queries) {
        this.pool = pool;
        this.queries = queries;
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
        if (s.attribution() != null) {
            return attributed(s);
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

    /** A job's system sources: of each node and source only the lines that are the job's (decoded and attributed). */
    private List<PodsView.SystemSource> attributed(Scope s) {
        Scope nodes = new Scope(s.jobId(), false, true, null, null, s.nodes(), s.systemFrom(), s.systemTo(), s.attribution());
        Map<String, long[]> totals = new java.util.TreeMap<>(); // node, NUL, source: first, last, lines, bytes
        long afterKey = Long.MIN_VALUE;
        long afterId = Long.MIN_VALUE;
        while (true) {
            List<ChunkMeta> metas = queries.metas(nodes, s.systemFrom(), s.systemTo(), null, true, afterKey, afterId, 200);
            for (int i = 0; i < metas.size(); i += 16) {
                List<ChunkMeta> group = metas.subList(i, Math.min(metas.size(), i + 16));
                Map<io.jobmon.logs.chunk.ChunkRef, byte[]> bodies = queries.bodies(group.stream().map(ChunkMeta::ref).toList());
                for (ChunkMeta m : group) {
                    byte[] body = bodies.get(m.ref());
                    if (body == null) {
                        throw new LogReader.Moved();
                    }
                    io.jobmon.logs.chunk.ChunkData d = io.jobmon.logs.chunk.ChunkCodec.decode(body);
                    io.jobmon.logs.attribution.Attribution[] mine = s.attribute(m, d);
                    for (int l = 0; l < d.size; l++) {
                        if (mine != null && mine[l] == null) {
                            continue;
                        }
                        long[] t = totals.computeIfAbsent(m.node() + "\u0000" + m.container(),
                                k -> new long[] {Long.MAX_VALUE, Long.MIN_VALUE, 0, 0});
                        t[0] = Math.min(t[0], d.times[l]);
                        t[1] = Math.max(t[1], d.times[l]);
                        t[2]++;
                        t[3] += d.lengths[l];
                    }
                }
            }
            if (metas.size() < 200) {
                break;
            }
            ChunkMeta last = metas.get(metas.size() - 1);
            afterKey = last.minTime();
            afterId = last.ref().id();
        }
        List<PodsView.SystemSource> out = new ArrayList<>();
        totals.forEach((k, t) -> {
            int sep = k.indexOf('\u0000');
            out.add(new PodsView.SystemSource(k.substring(0, sep), k.substring(sep + 1), Times.instant(t[0]),
                    Times.instant(t[1]), t[2], t[3]));
        });
        return out;
    }

    private static String blank(String s) {
        return s == null || s.isEmpty() ? null : s;
    }
}
