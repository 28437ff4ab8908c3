package io.jobmon.logs.follow;

import io.jobmon.contracts.events.JobStatus;
import io.jobmon.logs.query.ChunkMeta;
import io.jobmon.logs.query.ChunkQueries;
import io.jobmon.logs.query.Scope;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The index reads of a follow: where a scope's partitions stand now, and the chunks holding lines beyond a cursor. */
@ApplicationScoped
public class FollowQueries {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String SCOPE = "(($1 AND c.job_id = $2 AND c.kind = 'u' AND ($3::text IS NULL OR c.pod = $3)"
            + " AND ($4::text IS NULL OR c.container = $4)) OR ($5 AND c.kind = 's' AND c.node = ANY($6::text[])"
            + " AND c.max_time >= $7 AND c.min_time < $8))";
    private static final String POSITIONS = "SELECT c.kafka_partition, max(c.max_offset) AS o FROM chunk c WHERE " + SCOPE
            + " GROUP BY c.kafka_partition";
    private static final String BEYOND = "SELECT c.day, c.id, c.kind, c.node, c.namespace, c.pod, c.container,"
            + " c.kafka_partition, c.min_offset, c.max_offset, c.min_time, c.max_time, c.lines, c.raw_bytes, c.stored_bytes FROM chunk c"
            + " LEFT JOIN unnest($9::int[], $10::bigint[]) AS v(p, o) ON v.p = c.kafka_partition WHERE " + SCOPE
            + " AND (c.max_offset > coalesce(v.o, -1) OR ($11 AND c.max_offset = v.o)) ORDER BY c.min_time LIMIT 2000";

    private static final String ENDED = "SELECT status, finished_at FROM job_info WHERE job_id = $1 AND finished_at IS NOT NULL"
            + " AND finished_at <= now() - make_interval(secs => $2)";

    private final Pool pool;

    public FollowQueries(Pool pool) {
        this.pool = pool;
    }

    /** The highest stored offset of each partition holding lines of the scope: "now" for a new follow. */
    public FollowCursor now(Scope s) {
        return pool.preparedQuery(POSITIONS).execute(scope(s)).map(rows -> {
            Map<Integer, long[]> at = new HashMap<>();
            for (Row r : rows) {
                at.put(r.getInteger("kafka_partition"), new long[] {r.getLong("o"), Integer.MAX_VALUE});
            }
            return new FollowCursor(at);
        }).await().atMost(WAIT);
    }

    /**
     * Chunks that may hold lines beyond the cursor. {@code inclusive}: also those ending at a cursor's offset (a
     * resumed follow may stand between two lines of one record).
     */
    public List<ChunkMeta> beyond(Scope s, FollowCursor cursor, boolean inclusive) {
        Map<Integer, long[]> at = cursor.positions();
        Integer[] parts = at.keySet().toArray(Integer[]::new);
        Long[] offsets = new Long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            offsets[i] = at.get(parts[i])[0];
        }
        Tuple args = scope(s).addValue(parts).addValue(offsets).addValue(inclusive);
        return pool.preparedQuery(BEYOND).execute(args).map(rows -> {
            List<ChunkMeta> out = new ArrayList<>();
            for (Row r : rows) {
                out.add(ChunkQueries.meta(r));
            }
            return out;
        }).await().atMost(WAIT);
    }

    /** How a job ended, once it is final and ended at least {@code grace} ago; null before. */
    public Ended ended(String jobId, Duration grace) {
        return pool.preparedQuery(ENDED).execute(Tuple.of(jobId, grace.toMillis() / 1000.0)).map(rows -> {
            if (rows.size() == 0) {
                return null;
            }
            Row r = rows.iterator().next();
            String status = r.getString("status");
            if (status == null || !JobStatus.valueOf(status).isFinal()) {
                return null;
            }
            return new Ended(status, r.getOffsetDateTime("finished_at").toInstant());
        }).await().atMost(WAIT);
    }

    /** A finished job's final status and end: the data of a follow's {@code end} event. */
    public record Ended(String status, java.time.Instant finishedAt) {
    }

    private static Tuple scope(Scope s) {
        return Tuple.tuple().addValue(s.user()).addValue(s.jobId()).addValue(s.pod()).addValue(s.container())
                .addValue(s.system()).addValue(s.nodes().toArray(String[]::new)).addValue(s.systemFrom())
                .addValue(s.systemTo());
    }
}
