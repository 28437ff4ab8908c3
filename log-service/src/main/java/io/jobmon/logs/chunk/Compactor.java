package io.jobmon.logs.chunk;

import io.jobmon.logs.config.LogsConfig;
import io.jobmon.logs.query.SearchPool;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * Merges a stream's freshly flushed chunks (level 0: written every flush interval so that follows see lines within
 * a second) into chunks of about {@code chunks.target-raw-bytes}, once they add up to that or the oldest is
 * {@code chunks.max-age} old: the index and body rows are replaced in one transaction. Replicas share the work:
 * each locks the rows it merges ({@code FOR UPDATE SKIP LOCKED}); a stream's lines may come from several replicas
 * over time, the merge orders them by time and Kafka position.
 */
@ApplicationScoped
public class Compactor {

    private static final Logger LOG = Logger.getLogger(Compactor.class);
    private static final String GROUPS = "SELECT job_id, kind, node, namespace, pod, container, kafka_partition FROM chunk"
            + " WHERE level = 0 GROUP BY job_id, kind, node, namespace, pod, container, kafka_partition"
            + " HAVING sum(raw_bytes) >= $1 OR min(created_at) < now() - make_interval(secs => $2) LIMIT 200";
    private static final String LOCK = "SELECT day, id, min_offset FROM chunk WHERE level = 0 AND job_id IS NOT DISTINCT FROM $1"
            + " AND kind = $2 AND node = $3 AND namespace = $4 AND pod = $5 AND container = $6 AND kafka_partition = $7"
            + " ORDER BY min_offset FOR UPDATE SKIP LOCKED";
    private static final String SEAL = "UPDATE chunk SET level = 1 WHERE day = $1 AND id = $2";
    private static final String DELETE = "DELETE FROM chunk c USING unnest($1::date[], $2::bigint[]) AS k(d, i)"
            + " WHERE c.day = k.d AND c.id = k.i";

    private final Pool pool;
    private final ChunkStore store;
    private final ChunkIndex index;
    private final SearchPool search;
    private final LogsConfig config;

    public Compactor(Pool pool, ChunkStore store, ChunkIndex index, SearchPool search, LogsConfig config) {
        this.pool = pool;
        this.store = store;
        this.index = index;
        this.search = search;
        this.config = config;
    }

    @Scheduled(every = "${jobmon.logs.chunks.compact-every:5s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> scheduled() {
        return run(config.chunks().maxAge()).onFailure().invoke(e -> LOG.warnf("compaction failed: %s", e.toString()))
                .onFailure().recoverWithNull().replaceWithVoid();
    }

    /** Compacts every stream whose fresh chunks are due; @return the number of chunks merged away. */
    public Uni<Integer> run(Duration maxAge) {
        return pool.preparedQuery(GROUPS).execute(Tuple.of(config.chunks().targetRawBytes(), (double) maxAge.toMillis() / 1000))
                .chain(rows -> {
                    List<Tuple> groups = new ArrayList<>();
                    for (Row r : rows) {
                        groups.add(Tuple.tuple().addValue(r.getString("job_id")).addValue(r.getString("kind"))
                                .addValue(r.getString("node")).addValue(r.getString("namespace")).addValue(r.getString("pod"))
                                .addValue(r.getString("container")).addValue(r.getInteger("kafka_partition")));
                    }
                    return Multi.createFrom().iterable(groups).onItem()
                            .transformToUniAndConcatenate(g -> pool.withTransaction(conn -> compact(conn, g)))
                            .collect().with(java.util.stream.Collectors.summingInt(Integer::intValue));
                });
    }

    private Uni<Integer> compact(SqlConnection conn, Tuple group) {
        return conn.preparedQuery(LOCK).execute(group).chain(rows -> {
            List<ChunkRef> refs = new ArrayList<>();
            for (Row r : rows) {
                refs.add(new ChunkRef(r.getLocalDate("day"), r.getLong("id")));
            }
            if (refs.isEmpty()) {
                return Uni.createFrom().item(0);
            }
            if (refs.size() == 1) {
                return conn.preparedQuery(SEAL).execute(Tuple.of(refs.get(0).day(), refs.get(0).id())).replaceWith(0);
            }
            StreamKey stream = new StreamKey(group.getString(0), group.getString(1).charAt(0), group.getString(2),
                    group.getString(3), group.getString(4), group.getString(5));
            int partition = group.getInteger(6);
            LocalDate day = refs.stream().map(ChunkRef::day).min(LocalDate::compareTo).orElseThrow();
            return store.get(refs)
                    .chain(bodies -> Uni.createFrom().item(() -> merge(stream, partition, refs, bodies))
                            .runSubscriptionOn(search.executor()))
                    .chain(merged -> index.insert(conn, day, merged))
                    .chain(() -> store.delete(conn, refs))
                    .chain(() -> conn.preparedQuery(DELETE).execute(Tuple.of(
                            refs.stream().map(ChunkRef::day).toArray(LocalDate[]::new),
                            refs.stream().map(ChunkRef::id).toArray(Long[]::new))))
                    .replaceWith(refs.size());
        });
    }

    private List<NewChunk> merge(StreamKey stream, int partition, List<ChunkRef> refs, Map<ChunkRef, byte[]> bodies) {
        List<StoredLine> lines = new ArrayList<>();
        for (ChunkRef r : refs) {
            byte[] body = bodies.get(r);
            if (body == null) {
                throw new IllegalStateException("chunk body " + r + " is missing");
            }
            ChunkData d = ChunkCodec.decode(body);
            for (int i = 0; i < d.size; i++) {
                lines.add(d.stored(i));
            }
        }
        lines.sort(StoredLine::compare);
        List<NewChunk> out = new ArrayList<>();
        int from = 0;
        long raw = 0;
        for (int i = 0; i < lines.size(); i++) {
            raw += lines.get(i).text().length();
            if (raw >= config.chunks().targetRawBytes() || i == lines.size() - 1) {
                ChunkLines part = ChunkLines.of(lines.subList(from, i + 1));
                out.add(new NewChunk(stream, partition, 1, ChunkCodec.encode(part, config.chunks().zstdLevel(),
                        config.chunks().filterBits()), part));
                from = i + 1;
                raw = 0;
            }
        }
        return out;
    }
}
