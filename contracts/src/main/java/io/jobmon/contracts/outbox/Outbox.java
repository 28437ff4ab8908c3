package io.jobmon.contracts.outbox;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * The transactional outbox every service publishes through (see {@code docs/adr}): a service writes the Kafka
 * record into its {@code outbox} table in the same transaction as the change it describes, and a relay publishes
 * it after the commit. A record is never lost (it commits with its change, or not at all) and never held in a
 * transaction across the network.
 *
 * <p>A relay round ({@link #relay()}):
 * <ol>
 * <li>claims up to {@code batch-size} rows in a short transaction, under an advisory lock so that two instances
 * claim in turn, skipping every key another live instance is still publishing (a key's records keep their
 * order across instances);</li>
 * <li>sends them with the service's own Kafka settings ({@link KafkaSender}) and waits for the acknowledgements,
 * bounded by {@code send-timeout};</li>
 * <li>deletes what the broker acknowledged — for each key only up to its first unacknowledged record, and only
 * rows still at the revision that was sent — and releases the rest for the next round.</li>
 * </ol>
 * An instance that dies after claiming leaves its rows to whoever claims after {@code claim-ttl}. Consumers see
 * a record at least once, so they apply it idempotently.
 *
 * <p>The table: contracts' migration {@code db/shared/outbox/V0_3__outbox.sql}, which each publishing service loads
 * ({@code quarkus.flyway.locations}, ADR 0014). {@code payload} null is a tombstone; {@code replace_key}, set by
 * replace(), lets a newer record of the key replace an unsent one; a row may hold several records ({@link OutboxBundle}). SQL names it unqualified ({@code search_path} is
 * the service's schema).
 */
@ApplicationScoped
public class Outbox {

    private static final Logger LOG = Logger.getLogger(Outbox.class);

    private static final String APPEND = "INSERT INTO outbox (topic, record_key, payload)"
            + " SELECT $1, k, p FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS x(k, p, o) ORDER BY o";
    // The same, the rows claimed by this instance from the start: its caller publishes them right after its commit
    // (publish), with no claim round trip; rows it never publishes are the relay's once the claim expires.
    private static final String APPEND_OWNED = "INSERT INTO outbox (topic, record_key, payload, claimed_by, claimed_until)"
            + " SELECT $1, k, p, $4, now() + make_interval(secs => $5)"
            + " FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS x(k, p, o) ORDER BY o RETURNING id";
    private static final String REPLACE = "INSERT INTO outbox (topic, record_key, payload, replace_key)"
            + " VALUES ($1, $2, $3, $1 || '/' || $2) ON CONFLICT (replace_key) DO UPDATE"
            + " SET payload = EXCLUDED.payload, revision = outbox.revision + 1, created_at = now()";
    private static final String LOCK = "SELECT pg_advisory_xact_lock(hashtext(current_schema() || '.outbox'))";
    // The rows to claim are chosen once (an ARRAY subquery is evaluated once) and then updated by primary key. As
    // a join (UPDATE ... FROM (SELECT ... LIMIT) s WHERE o.id = s.id), the planner, with the statistics of a table
    // that is empty most of the time, nested the whole selection inside a loop over the table's rows: cubic in the
    // rows waiting, 9 to 40 s per claim with a thousand rows (event-ingest's benchmark, docs/event-ingest.md).
    private static final String CLAIM = "UPDATE outbox o SET claimed_by = $1,"
            + " claimed_until = now() + make_interval(secs => $2)"
            + " WHERE o.id = ANY(ARRAY(SELECT c.id FROM outbox c WHERE (c.claimed_until IS NULL OR c.claimed_until < now())"
            + "   AND NOT EXISTS (SELECT 1 FROM outbox b WHERE b.topic = c.topic AND b.record_key = c.record_key"
            + "     AND b.id < c.id AND b.claimed_until >= now() AND b.claimed_by <> $1)"
            + "   ORDER BY c.id LIMIT $3))"
            + " RETURNING o.id, o.topic, o.record_key, o.payload, o.revision";
    private static final String DELETE = "DELETE FROM outbox o USING unnest($1::bigint[], $2::int[]) AS a(id, rev)"
            + " WHERE o.id = a.id AND o.revision = a.rev";
    private static final String RELEASE = "UPDATE outbox SET claimed_by = NULL, claimed_until = NULL"
            + " WHERE claimed_by = $1 AND id = ANY($2::bigint[])";
    private static final String BACKLOG = "SELECT topic, count(*) AS n,"
            + " extract(epoch FROM now() - min(created_at)) AS oldest FROM outbox GROUP BY topic";

    private final Pool pool;
    private final OutboxConfig config;
    private final MeterRegistry registry;
    private final Supplier<OutboxSender> senderFactory;
    private final String instance = UUID.randomUUID().toString();
    private final MultiGauge pendingGauge;
    private final MultiGauge oldestGauge;
    private volatile OutboxSender sender;
    /** Topics this instance wrote to: their gauges read 0 when nothing waits, rather than disappearing. */
    private final Set<String> topics = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** The service's outbox, sending with its own {@code kafka.*} settings. */
    @Inject
    public Outbox(Pool pool, OutboxConfig config, MeterRegistry registry,
            @Identifier("default-kafka-broker") Instance<Map<String, Object>> kafkaConfig) {
        this(pool, config, registry, () -> new KafkaSender(kafkaConfig.get(), config.sendTimeout()));
    }

    /** An outbox sending through senders from {@code senderFactory} (made once, on the first round). */
    public Outbox(Pool pool, OutboxConfig config, MeterRegistry registry, Supplier<OutboxSender> senderFactory) {
        this.pool = pool;
        this.config = config;
        this.registry = registry;
        this.senderFactory = senderFactory;
        this.pendingGauge = MultiGauge.builder("jobmon.outbox.pending")
                .description("records committed but not yet acknowledged by the broker").register(registry);
        this.oldestGauge = MultiGauge.builder("jobmon.outbox.oldest").baseUnit("seconds")
                .description("age of the oldest record waiting in the outbox").register(registry);
    }

    /** Appends records to publish in this order, in the caller's transaction. */
    public Uni<Void> append(SqlClient tx, String topic, List<String> keys, List<String> payloads) {
        if (keys.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        topics.add(topic);
        return tx.preparedQuery(APPEND).execute(Tuple.of(topic, keys.toArray(String[]::new),
                payloads.toArray(String[]::new))).replaceWithVoid();
    }

    /**
     * Appends records to publish in this order, in the caller's transaction, claimed by this instance: once the
     * transaction commits, the caller hands the entries to {@link #publish} and they go out at once, without a relay
     * round's claim. Entries never published (the caller failed, the instance died) are the relay's after
     * {@code claim-ttl}, like any claim of an instance that stopped.
     */
    public Uni<List<OutboxEntry>> appendOwned(SqlClient tx, String topic, List<String> keys, List<String> payloads) {
        if (keys.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        topics.add(topic);
        return tx.preparedQuery(APPEND_OWNED).execute(Tuple.of(topic, keys.toArray(String[]::new),
                payloads.toArray(String[]::new), instance, (double) config.claimTtl().toMillis() / 1000.0))
                .map(rows -> {
                    // The identities follow the ordinality (ORDER BY o), so sorted they pair with the records.
                    long[] ids = new long[rows.size()];
                    int i = 0;
                    for (Row r : rows) {
                        ids[i++] = r.getLong(0);
                    }
                    java.util.Arrays.sort(ids);
                    List<OutboxEntry> out = new ArrayList<>(ids.length);
                    for (i = 0; i < ids.length; i++) {
                        out.add(new OutboxEntry(ids[i], topic, keys.get(i), payloads.get(i), 0));
                    }
                    return out;
                });
    }

    /**
     * Like {@link #appendOwned}, the records in one row ({@link OutboxBundle}, ADR 0058): one insert and, once all are
     * acknowledged, one delete for all of them. The bundle's records keep their order, and bundles of a topic theirs.
     */
    public Uni<List<OutboxEntry>> appendBundle(SqlClient tx, String topic, List<String> keys, List<String> payloads) {
        if (keys.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return appendOwned(tx, topic, List.of(OutboxBundle.KEY), List.of(OutboxBundle.encode(keys, payloads)));
    }

    /**
     * Publishes entries this instance appended with {@link #appendOwned} and committed: sends them, deletes what the
     * broker acknowledged and releases the rest to the relay. The number of rows acknowledged.
     */
    public Uni<Integer> publish(List<OutboxEntry> owned) {
        if (owned.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        return send(sender(), owned);
    }

    /** Sends the rows' records (a bundle's one by one) and finishes the rows whose records were all acknowledged. */
    private Uni<Integer> send(OutboxSender with, List<OutboxEntry> rows) {
        List<OutboxEntry> records = new ArrayList<>(rows.size());
        Map<Long, Integer> parts = new HashMap<>();
        for (OutboxEntry row : rows) {
            List<OutboxEntry> of = OutboxBundle.records(row);
            records.addAll(of);
            parts.put(row.id(), of.size());
        }
        return with.send(records).chain(acked -> {
            Map<Long, Integer> ackedParts = new HashMap<>();
            acked.forEach(e -> ackedParts.merge(e.id(), 1, Integer::sum));
            List<OutboxEntry> whole = rows.stream()
                    .filter(r -> parts.get(r.id()).equals(ackedParts.getOrDefault(r.id(), 0))).toList();
            return finish(rows, whole, parts);
        });
    }

    public Uni<Void> append(SqlClient tx, String topic, String key, String payload) {
        return append(tx, topic, List.of(key), java.util.Collections.singletonList(payload));
    }

    /**
     * Records the key's latest state, in the caller's transaction: an unsent earlier record of the same key (for a
     * compacted topic: a job's previous snapshot) is replaced rather than sent too.
     */
    public Uni<Void> replace(SqlClient tx, String topic, String key, String payload) {
        topics.add(topic);
        return tx.preparedQuery(REPLACE).execute(Tuple.of(topic, key, payload)).replaceWithVoid();
    }

    /** One round with the service's Kafka producer; the number of records the broker acknowledged. */
    public Uni<Integer> relay() {
        return relay(sender());
    }

    /** Rounds until the outbox has no more full batch waiting; the number published. */
    public Uni<Integer> drain() {
        return relay().chain(n -> n < config.batchSize() ? Uni.createFrom().item(n)
                : drain().map(more -> n + more));
    }

    /** One round with the given sender (tests use one that fails). */
    public Uni<Integer> relay(OutboxSender with) {
        return claim().chain(claimed -> claimed.isEmpty() ? Uni.createFrom().item(0) : send(with, claimed));
    }

    /** Refreshes {@code jobmon_outbox_pending} and {@code jobmon_outbox_oldest_seconds} from the table. */
    public Uni<Void> measure() {
        return pool.query(BACKLOG).execute().invoke(rows -> {
            List<MultiGauge.Row<?>> pending = new ArrayList<>();
            List<MultiGauge.Row<?>> oldest = new ArrayList<>();
            Set<String> waiting = new HashSet<>();
            for (Row r : rows) {
                Tags tags = Tags.of("topic", r.getString("topic"));
                waiting.add(r.getString("topic"));
                topics.add(r.getString("topic"));
                pending.add(MultiGauge.Row.of(tags, r.getLong("n")));
                oldest.add(MultiGauge.Row.of(tags, r.getDouble("oldest")));
            }
            for (String t : topics) {
                if (!waiting.contains(t)) {
                    pending.add(MultiGauge.Row.of(Tags.of("topic", t), 0));
                    oldest.add(MultiGauge.Row.of(Tags.of("topic", t), 0));
                }
            }
            pendingGauge.register(pending, true);
            oldestGauge.register(oldest, true);
        }).replaceWithVoid();
    }

    /** Records waiting, all topics. */
    public Uni<Long> pending() {
        return pool.query("SELECT count(*) AS n FROM outbox").execute().map(rows -> rows.iterator().next().getLong("n"));
    }

    private Uni<List<OutboxEntry>> claim() {
        return pool.withTransaction(tx -> tx.query(LOCK).execute()
                .chain(() -> tx.preparedQuery(CLAIM).execute(Tuple.of(instance,
                        (double) config.claimTtl().toMillis() / 1000.0, config.batchSize()))))
                .map(rows -> {
                    List<OutboxEntry> out = new ArrayList<>(rows.size());
                    for (Row r : rows) {
                        out.add(new OutboxEntry(r.getLong("id"), r.getString("topic"), r.getString("record_key"),
                                r.getString("payload"), r.getInteger("revision")));
                    }
                    out.sort((a, b) -> Long.compare(a.id(), b.id()));
                    return out;
                });
    }

    private Uni<Integer> finish(List<OutboxEntry> claimed, List<OutboxEntry> acked, Map<Long, Integer> parts) {
        List<OutboxEntry> done = deliveredInOrder(claimed, acked);
        Long[] ids = done.stream().map(OutboxEntry::id).toArray(Long[]::new);
        Integer[] revisions = done.stream().map(OutboxEntry::revision).toArray(Integer[]::new);
        Long[] all = claimed.stream().map(OutboxEntry::id).toArray(Long[]::new);
        if (done.size() < claimed.size()) {
            LOG.warnf("outbox: %d of %d records not acknowledged; they stay for the next round",
                    claimed.size() - done.size(), claimed.size());
        }
        return pool.withTransaction(tx -> tx.preparedQuery(DELETE).execute(Tuple.of(ids, revisions))
                .chain(() -> tx.preparedQuery(RELEASE).execute(Tuple.of(instance, all))))
                .invoke(() -> done.forEach(e -> Counter.builder("jobmon.outbox.published")
                        .description("records the broker acknowledged").tag("topic", e.topic())
                        .register(registry).increment(parts.get(e.id()))))
                .replaceWith(done.size());
    }

    /**
     * The acknowledged entries that may be deleted: a key's records after one that was not acknowledged stay too,
     * so that the next round sends them again after it and the key's order holds.
     */
    static List<OutboxEntry> deliveredInOrder(List<OutboxEntry> claimed, List<OutboxEntry> acked) {
        Set<Long> ackedIds = new HashSet<>();
        acked.forEach(e -> ackedIds.add(e.id()));
        Set<String> blocked = new HashSet<>();
        List<OutboxEntry> done = new ArrayList<>(acked.size());
        for (OutboxEntry e : claimed) {
            String key = e.topic() + '\u0000' + e.key();
            if (!ackedIds.contains(e.id())) {
                blocked.add(key);
            } else if (!blocked.contains(key)) {
                done.add(e);
            }
        }
        return done;
    }

    private OutboxSender sender() {
        OutboxSender s = sender;
        if (s == null) {
            synchronized (this) {
                if (sender == null) {
                    sender = senderFactory.get();
                }
                s = sender;
            }
        }
        return s;
    }

    @PreDestroy
    void close() {
        if (sender != null) {
            sender.close();
        }
    }
}
