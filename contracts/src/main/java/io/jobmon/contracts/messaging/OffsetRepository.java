package io.jobmon.contracts.messaging;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The Kafka offsets whose effects are in the store, per topic partition (the service's {@code consumer_offset}
 * table). Locked for the batch's transaction, so that two consumers (a zombie and its successor after a rebalance)
 * never apply the same records: a batch consumer stores its effects and its next offsets in one transaction and
 * skips what is below them when it reads records again.
 */
@ApplicationScoped
public class OffsetRepository {

    private static final String ENSURE = "INSERT INTO consumer_offset (topic, kafka_partition, next_offset)"
            + " SELECT $1, p, 0 FROM unnest($2::int[]) AS p ON CONFLICT DO NOTHING";
    private static final String LOCK = "SELECT kafka_partition, next_offset FROM consumer_offset"
            + " WHERE topic = $1 AND kafka_partition = ANY($2::int[]) ORDER BY kafka_partition FOR UPDATE";
    private static final String SAVE = "UPDATE consumer_offset o SET next_offset = u.n"
            + " FROM unnest($2::int[], $3::bigint[]) AS u(p, n)"
            + " WHERE o.topic = $1 AND o.kafka_partition = u.p AND o.next_offset < u.n";

    /** The next offset to apply of each partition, locked until the transaction ends. */
    public Uni<Map<Integer, Long>> lock(SqlConnection conn, String topic, Set<Integer> partitions) {
        Integer[] parts = partitions.stream().sorted().toArray(Integer[]::new);
        // Both go out together (the connection pipelines them and the server runs them in this order): one round trip.
        return Uni.combine().all().unis(conn.preparedQuery(ENSURE).execute(Tuple.of(topic, parts)),
                conn.preparedQuery(LOCK).execute(Tuple.of(topic, parts))).asTuple()
                .map(both -> both.getItem2())
                .map(rows -> {
                    Map<Integer, Long> next = new HashMap<>();
                    for (Row r : rows) {
                        next.put(r.getInteger("kafka_partition"), r.getLong("next_offset"));
                    }
                    return next;
                });
    }

    public Uni<Void> save(SqlConnection conn, String topic, Map<Integer, Long> next) {
        Integer[] parts = next.keySet().toArray(Integer[]::new);
        Long[] offsets = new Long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            offsets[i] = next.get(parts[i]);
        }
        return conn.preparedQuery(SAVE).execute(Tuple.of(topic, parts, offsets)).replaceWithVoid();
    }
}
