package io.jobmon.contracts.outbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.testsupport.EmbeddedKafka;
import io.jobmon.testsupport.EmbeddedPostgresDb;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.PoolOptions;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The suite's one outbox on a real PostgreSQL and a real broker: several instances share the table without
 * publishing a record twice or out of its key's order; only what the broker acknowledged is deleted; a record
 * replaced while in flight is sent again; the producer takes the service's Kafka security settings (SASL/PLAIN).
 */
class OutboxTest {

    static Vertx vertx;
    static Pool pool;
    static String schema;

    @BeforeAll
    static void database() throws java.io.IOException {
        EmbeddedPostgresDb.Connection c = EmbeddedPostgresDb.connection();
        URI uri = URI.create(c.url());
        schema = "outbox_test_" + UUID.randomUUID().toString().substring(0, 8);
        vertx = Vertx.vertx();
        PgConnectOptions admin = new PgConnectOptions().setHost(uri.getHost()).setPort(uri.getPort())
                .setDatabase(uri.getPath().substring(1)).setUser(c.user()).setPassword(c.password());
        Pool setup = Pool.newInstance(PgBuilder.pool().connectingTo(admin).using(vertx.getDelegate()).build());
        setup.query("CREATE SCHEMA " + schema).execute().await().indefinitely();
        setup.close().await().indefinitely();
        PgConnectOptions opts = new PgConnectOptions(admin).addProperty("search_path", schema);
        pool = Pool.newInstance(PgBuilder.pool().with(new PoolOptions().setMaxSize(6)).connectingTo(opts)
                .using(vertx.getDelegate()).build());
        // The table as every service gets it: contracts' own migration (ADR 0014).
        String ddl;
        try (var in = OutboxTest.class.getClassLoader().getResourceAsStream("db/shared/outbox/V0_3__outbox.sql")) {
            ddl = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).replaceAll("(?m)^--.*$", "");
        }
        for (String statement : ddl.split(";")) {
            if (!statement.isBlank()) {
                pool.query(statement).execute().await().indefinitely();
            }
        }
    }

    @AfterAll
    static void close() {
        pool.close().await().indefinitely();
        vertx.close().await().indefinitely();
    }

    @BeforeEach
    void empty() {
        pool.query("DELETE FROM outbox").execute().await().indefinitely();
    }

    static OutboxConfig config(int batch, Duration sendTimeout) {
        return new OutboxConfig() {
            public boolean enabled() {
                return true;
            }

            public String interval() {
                return "0.5s";
            }

            public int batchSize() {
                return batch;
            }

            public Duration claimTtl() {
                return Duration.ofSeconds(30);
            }

            public Duration sendTimeout() {
                return sendTimeout;
            }
        };
    }

    static Outbox outbox(int batch, OutboxSender sender) {
        return new Outbox(pool, config(batch, Duration.ofSeconds(5)), new SimpleMeterRegistry(), () -> sender);
    }

    /** A sender that acknowledges what {@code ack} says and records what it was asked to send, in order. */
    static OutboxSender recording(List<String> sent, Function<OutboxEntry, Boolean> ack, Duration delay) {
        return new OutboxSender() {
            public Uni<List<OutboxEntry>> send(List<OutboxEntry> entries) {
                List<OutboxEntry> acked = new ArrayList<>();
                for (OutboxEntry e : entries) {
                    sent.add(e.key() + ":" + e.payload());
                    if (ack.apply(e)) {
                        acked.add(e);
                    }
                }
                Uni<List<OutboxEntry>> u = Uni.createFrom().item(acked);
                return delay.isZero() ? u : u.onItem().delayIt().by(delay);
            }

            public void close() {
            }
        };
    }

    void append(String topic, String key, String payload) {
        pool.withTransaction(tx -> new Outbox(pool, config(10, Duration.ofSeconds(1)), new SimpleMeterRegistry(),
                () -> null).append(tx, topic, key, payload)).await().indefinitely();
    }

    long rows() {
        return pool.query("SELECT count(*) AS n FROM outbox").execute().await().indefinitely().iterator().next()
                .getLong("n");
    }

    @Test
    void twoInstancesShareTheTableNeverSendARecordTwiceAndKeepEachKeysOrder() throws Exception {
        for (int i = 0; i < 4; i++) {
            for (int k = 0; k < 40; k++) {
                append("t", "k" + k, Integer.toString(i));
            }
        }
        List<String> sent = Collections.synchronizedList(new ArrayList<>());
        // Each instance's first send waits for the other's: both hold claims at once, so the key exclusion matters.
        CompletableFuture<Void> bothClaimed = new CompletableFuture<>();
        AtomicInteger arrived = new AtomicInteger();
        Outbox one = outbox(10, meeting(recording(sent, e -> true, Duration.ofMillis(5)), bothClaimed, arrived));
        Outbox two = outbox(10, meeting(recording(sent, e -> true, Duration.ofMillis(5)), bothClaimed, arrived));
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            List<Future<Integer>> done = threads.invokeAll(List.of(() -> drainAll(one), () -> drainAll(two)));
            assertEquals(160, done.get(0).get() + done.get(1).get());
            assertTrue(done.get(0).get() > 0 && done.get(1).get() > 0, "both instances worked");
        } finally {
            threads.shutdownNow();
        }
        assertEquals(160, sent.size(), "no record sent twice");
        Map<String, Integer> last = new HashMap<>();
        for (String s : sent) {
            String key = s.substring(0, s.indexOf(':'));
            int n = Integer.parseInt(s.substring(s.indexOf(':') + 1));
            assertEquals(last.getOrDefault(key, -1) + 1, n, "key " + key + " out of order in " + sent);
            last.put(key, n);
        }
        assertEquals(0, rows());
    }

    /** Holds an instance's first send (without blocking its thread) until the other instance's first send. */
    static OutboxSender meeting(OutboxSender inner, CompletableFuture<Void> both, AtomicInteger arrived) {
        return new OutboxSender() {
            boolean first = true;

            public Uni<List<OutboxEntry>> send(List<OutboxEntry> entries) {
                if (first) {
                    first = false;
                    if (arrived.incrementAndGet() == 2) {
                        both.complete(null);
                    }
                    return Uni.createFrom().completionStage(both).ifNoItem().after(Duration.ofSeconds(20))
                            .recoverWithItem((Void) null).chain(() -> inner.send(entries));
                }
                return inner.send(entries);
            }

            public void close() {
            }
        };
    }

    static int drainAll(Outbox o) throws InterruptedException {
        int total = 0;
        for (int idle = 0; idle < 20; ) {
            int n = o.relay().await().indefinitely();
            total += n;
            idle = n == 0 ? idle + 1 : 0;
            if (n == 0) {
                Thread.sleep(10);
            }
        }
        return total;
    }

    @Test
    void anUnacknowledgedRecordStaysAndHoldsBackTheLaterRecordsOfItsKey() {
        append("t", "k", "1");
        append("t", "k", "2");
        append("t", "other", "1");
        List<String> sent = new CopyOnWriteArrayList<>();
        int published = outbox(10, recording(sent, e -> !"1".equals(e.payload()) || "other".equals(e.key()),
                Duration.ZERO)).relay().await().indefinitely();
        assertEquals(1, published, "only other:1 may be deleted: k:2 waits behind the unacknowledged k:1");
        assertEquals(2, rows());
        sent.clear();
        outbox(10, recording(sent, e -> true, Duration.ZERO)).relay().await().indefinitely();
        assertEquals(List.of("k:1", "k:2"), sent, "sent again, in order");
        assertEquals(0, rows());
    }

    @Test
    void recordsAppendedOwnedArePublishedByTheirWriterAloneAndWhatItCouldNotSendIsReleased() {
        List<String> sent = new CopyOnWriteArrayList<>();
        Outbox writer = outbox(10, recording(sent, e -> !"k2".equals(e.key()), Duration.ZERO));
        List<OutboxEntry> owned = pool.withTransaction(tx -> writer.appendOwned(tx, "t", List.of("k1", "k2", "k1"),
                List.of("a", "b", "c"))).await().indefinitely();
        assertEquals(List.of("k1:a", "k2:b", "k1:c"), owned.stream().map(e -> e.key() + ":" + e.payload()).toList(),
                "the entries pair each record with its row, in the order given");
        List<String> other = new CopyOnWriteArrayList<>();
        assertEquals(0, outbox(10, recording(other, e -> true, Duration.ZERO)).relay().await().indefinitely(),
                "another instance's relay leaves rows its writer claimed");
        assertEquals(List.of(), other);
        assertEquals(2, writer.publish(owned).await().indefinitely());
        assertEquals(List.of("k1:a", "k2:b", "k1:c"), sent);
        assertEquals(1, rows(), "k2:b was not acknowledged: it stays");
        sent.clear();
        outbox(10, recording(other, e -> true, Duration.ZERO)).relay().await().indefinitely();
        assertEquals(List.of("k2:b"), other, "released to the relay, which sends it");
        assertEquals(0, rows());
    }

    List<OutboxEntry> bundle(Outbox writer, List<String> keys, List<String> payloads) {
        return pool.withTransaction(tx -> writer.appendBundle(tx, "t", keys, payloads)).await().indefinitely();
    }

    @Test
    void aBundleIsSentInOrderDeletedOnceAllItsRecordsAreAcknowledgedAndBundlesKeepTheirOrder() {
        List<String> sent = new CopyOnWriteArrayList<>();
        Outbox writer = outbox(10, recording(sent, e -> !"b".equals(e.payload()), Duration.ZERO));
        List<OutboxEntry> first = bundle(writer, List.of("k1", "k2", "k1", "k3"), java.util.Arrays.asList("a", "b", "1:c:", null));
        assertEquals(1, first.size(), "one row");
        assertEquals(1, rows());
        assertEquals(0, writer.publish(first).await().indefinitely(), "k2:b not acknowledged: the row stays, released");
        assertEquals(List.of("k1:a", "k2:b", "k1:1:c:", "k3:null"), sent, "record by record, in order, a tombstone too");
        // a later bundle of another instance waits while the earlier one is claimed by a live instance
        Outbox holder = outbox(10, recording(new ArrayList<>(), e -> true, Duration.ZERO));
        List<OutboxEntry> held = pool.withTransaction(tx -> holder.appendOwned(tx, "t", List.of(OutboxBundle.KEY),
                List.of("2:k40:"))).await().indefinitely();
        List<String> other = new CopyOnWriteArrayList<>();
        assertEquals(1, outbox(10, recording(other, e -> true, Duration.ZERO)).relay().await().indefinitely(),
                "the released first bundle is the relay's; the one claimed by its live writer is not");
        assertEquals(List.of("k1:a", "k2:b", "k1:1:c:", "k3:null"), other, "sent again whole: at least once, in order");
        assertEquals(1, holder.publish(held).await().indefinitely());
        assertEquals(0, rows());
        // the released bundle of an instance is not claimed while an earlier one is claimed by another live instance
        List<OutboxEntry> earlier = bundle(holder, List.of("k1"), List.of("d"));
        Outbox failing = outbox(10, recording(new ArrayList<>(), e -> false, Duration.ZERO));
        assertEquals(0, failing.publish(bundle(failing, List.of("k1"), List.of("e"))).await().indefinitely());
        other.clear();
        assertEquals(0, outbox(10, recording(other, e -> true, Duration.ZERO)).relay().await().indefinitely());
        assertEquals(List.of(), other, "k1:e waits behind k1:d");
        assertEquals(1, holder.publish(earlier).await().indefinitely());
        assertEquals(1, outbox(10, recording(other, e -> true, Duration.ZERO)).relay().await().indefinitely());
        assertEquals(List.of("k1:e"), other);
    }

    @Test
    void aRecordReplacedWhileInFlightIsSentAgainWithItsNewContent() {
        Outbox writer = outbox(10, null);
        pool.withTransaction(tx -> writer.replace(tx, "t", "job-1", "v1")).await().indefinitely();
        pool.withTransaction(tx -> writer.replace(tx, "t", "job-1", "v2")).await().indefinitely();
        assertEquals(1, rows(), "an unsent snapshot is replaced, not queued behind");
        List<String> sent = new CopyOnWriteArrayList<>();
        OutboxSender replacing = new OutboxSender() {
            public Uni<List<OutboxEntry>> send(List<OutboxEntry> entries) {
                entries.forEach(e -> sent.add(e.payload()));
                return pool.withTransaction(tx -> writer.replace(tx, "t", "job-1", "v3")).replaceWith(entries);
            }

            public void close() {
            }
        };
        assertEquals(1, outbox(10, replacing).relay().await().indefinitely());
        assertEquals(1, rows(), "v3 was written while v2 was on its way: it must not be deleted with it");
        List<String> again = new CopyOnWriteArrayList<>();
        outbox(10, recording(again, e -> true, Duration.ZERO)).relay().await().indefinitely();
        assertEquals(List.of("v2"), sent);
        assertEquals(List.of("job-1:v3"), again);
        assertEquals(0, rows());
    }

    @Test
    void theProducerTakesTheServicesKafkaSecuritySettingsAndWaitsOutAnOutage() {
        String topic = "outbox-test-" + UUID.randomUUID();
        Map<String, Object> kafka = new HashMap<>();
        EmbeddedKafka.saslConfig().forEach((k, v) -> kafka.put(k.substring("kafka.".length()), v));
        OutboxConfig cfg = config(10, Duration.ofSeconds(3));
        Outbox outbox = new Outbox(pool, cfg, new SimpleMeterRegistry(), () -> new KafkaSender(kafka, cfg.sendTimeout()));
        try {
            EmbeddedKafka.saslLink().cut();
            pool.withTransaction(tx -> outbox.append(tx, topic, "k", "while-away")).await().indefinitely();
            assertEquals(0, outbox.relay().await().indefinitely(), "nothing acknowledged while the broker is away");
            assertEquals(1, rows());
        } finally {
            EmbeddedKafka.saslLink().restore();
        }
        assertEquals(1, outbox.relay().await().indefinitely(), "published over SASL/PLAIN once the broker is back");
        assertEquals(0, rows());
        List<ConsumerRecord<String, String>> got = read(topic);
        assertEquals(1, got.size());
        assertEquals("k", got.get(0).key());
        assertEquals("while-away", got.get(0).value());
    }

    static List<ConsumerRecord<String, String>> read(String topic) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, EmbeddedKafka.bootstrapServers());
        try (KafkaConsumer<String, String> c = new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer())) {
            TopicPartition tp = new TopicPartition(topic, 0);
            c.assign(List.of(tp));
            c.seekToBeginning(List.of(tp));
            List<ConsumerRecord<String, String>> out = new ArrayList<>();
            long deadline = System.currentTimeMillis() + 10_000;
            while (out.isEmpty() && System.currentTimeMillis() < deadline) {
                c.poll(Duration.ofMillis(200)).forEach(out::add);
            }
            return out;
        }
    }

    @Test
    void deliveredInOrderKeepsEachKeysAcknowledgedPrefix() {
        OutboxEntry a1 = new OutboxEntry(1, "t", "a", "1", 0);
        OutboxEntry b1 = new OutboxEntry(2, "t", "b", "1", 0);
        OutboxEntry a2 = new OutboxEntry(3, "t", "a", "2", 0);
        OutboxEntry b2 = new OutboxEntry(4, "t", "b", "2", 0);
        assertEquals(List.of(b1, b2), Outbox.deliveredInOrder(List.of(a1, b1, a2, b2), List.of(b1, a2, b2)));
        assertEquals(List.of(a1, b1, b2), Outbox.deliveredInOrder(List.of(a1, b1, a2, b2), List.of(a1, b1, b2)));
    }
}
