package io.jobmon.logs.bench;

import io.jobmon.logs.chunk.ChunkCodec;
import io.jobmon.logs.chunk.ChunkData;
import io.jobmon.logs.chunk.ChunkRef;
import io.jobmon.logs.chunk.S3ChunkStore;
import io.jobmon.logs.s3.S3TestResource;
import io.jobmon.testsupport.BenchKafka;
import io.jobmon.testsupport.EmbeddedKafka;
import io.jobmon.testsupport.EmbeddedPostgresDb;
import io.jobmon.testsupport.ServiceProcess;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.PoolOptions;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Fault test (a program, not a test): log-service (a separate process) is killed with SIGKILL a third of the way
 * through ingesting {@code records} unique lines (default 300,000), then started again. Every line must be stored
 * exactly once: the store's lines, decoded from every chunk, are compared with what was produced (count, a checksum
 * of the texts, and no Kafka position twice). Exit code 0 when they match. With {@code s3} as the second argument
 * the bodies go to an S3 store (s3proxy in this JVM, filesystem backend): every index row must also have its body, and
 * the bodies the kill left without an index row (put, not committed) are counted and swept.
 */
public final class IngestFaultTest {

    public static void main(String[] args) throws Exception {
        long records = args.length > 0 ? Long.parseLong(args[0]) : 300_000;
        boolean s3 = args.length > 1 && args[1].equals("s3");
        Bench.quietLogging();
        String run = Long.toString(System.currentTimeMillis(), 36);
        String bootstrap = EmbeddedKafka.bootstrapServers();
        EmbeddedPostgresDb.Connection pg = EmbeddedPostgresDb.connection();
        String topic = "fault.logs.lines." + run;
        BenchKafka.createTopic(bootstrap, topic, 4);
        long checksum = 0;
        try (KafkaProducer<String, String> producer = BenchKafka.producer(bootstrap)) {
            Workload[] w = new Workload[8];
            for (int p = 0; p < 8; p++) {
                w[p] = new Workload(p, p);
            }
            Instant t0 = Instant.parse("2026-07-13T00:00:00Z");
            for (long i = 0; i < records; i++) {
                int p = (int) (i % 8);
                String line = "seq " + i + " " + w[p].next();
                checksum += hash(line);
                String pod = "fault-worker-" + p;
                producer.send(new ProducerRecord<>(topic, "local/team-nlp/" + pod + "/trainer",
                        Bench.fluentBit("fault-" + run, pod, p, t0.plusNanos(i * 1000L), line)));
            }
            producer.flush();
        }
        System.out.printf("produced %,d lines%n", records);
        String db = Bench.freshDatabase(pg, "fault_" + run);
        Map<String, String> props = new HashMap<>(Map.of("jobmon.logs.intake.unknown-job-grace", "24h",
                "jobmon.logs.masking.enabled", "false"));
        if (s3) {
            props.putAll(S3TestResource.config(Files.createTempDirectory("fault-s3-")));
        }
        ServiceProcess service = Bench.service("fault", bootstrap, db, pg.user(), pg.password(), topic, "fault-" + run, props);
        service.start();
        try (Connection c = Bench.db(db, pg.user(), pg.password())) {
            while (Bench.applied(c, topic) < records / 3) {
                Thread.sleep(5);
            }
            service.kill();
            System.out.printf("killed -9 with %,d of %,d records stored%n", Bench.applied(c, topic), records);
            service.start();
            while (Bench.applied(c, topic) < records) {
                Thread.sleep(100);
            }
            service.stop();
            long lines = 0;
            long sum = 0;
            long duplicates = 0;
            Set<String> positions = new HashSet<>();
            Bodies bodies = s3 ? new S3Bodies(db, pg) : ref -> null;
            long missing = 0;
            try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(s3
                    ? "SELECT c.kafka_partition, c.day, c.id FROM logs.chunk c"
                    : "SELECT c.kafka_partition, b.body FROM logs.chunk c JOIN logs.chunk_body b ON b.day = c.day AND b.id = c.id")) {
                while (r.next()) {
                    byte[] body = s3 ? bodies.get(new ChunkRef(r.getDate(2).toLocalDate(), r.getLong(3))) : r.getBytes(2);
                    if (body == null) {
                        missing++;
                        continue;
                    }
                    ChunkData d = ChunkCodec.decode(body);
                    for (int i = 0; i < d.size; i++) {
                        lines++;
                        sum += hash(d.line(i));
                        if (!positions.add(r.getInt(1) + ":" + d.offsets[i] + ":" + d.subs[i])) {
                            duplicates++;
                        }
                    }
                }
            }
            if (s3) {
                System.out.printf("index rows without their body: %d; orphan bodies (put, never committed) swept: %d%n",
                        missing, ((S3Bodies) bodies).sweep());
            }
            boolean same = lines == records && sum == checksum && duplicates == 0 && missing == 0;
            System.out.printf("%s: %,d lines stored of %,d produced, checksum %s, %d positions twice%n",
                    same ? "EXACTLY ONCE" : "DIFFERENT", lines, records, sum == checksum ? "equal" : "DIFFERENT", duplicates);
            System.out.println("service log: " + service.log());
            System.exit(same ? 0 : 1);
        }
    }

    /** Chunk bodies by ref. */
    private interface Bodies {
        byte[] get(ChunkRef ref);
    }

    /** The bodies in the S3 store, through the service's own {@link S3ChunkStore}. */
    private static final class S3Bodies implements Bodies {

        private final S3ChunkStore store;

        S3Bodies(String db, EmbeddedPostgresDb.Connection pg) {
            PgConnectOptions options = PgConnectOptions.fromUri(db).setUser(pg.user()).setPassword(pg.password())
                    .setProperties(Map.of("search_path", "logs"));
            Pool pool = Pool.newInstance(PgBuilder.pool().with(new PoolOptions().setMaxSize(2)).connectingTo(options).build());
            store = new S3ChunkStore(pool, S3TestResource.settings(S3TestResource.endpoint()));
        }

        @Override
        public byte[] get(ChunkRef ref) {
            return store.get(List.of(ref)).await().atMost(Duration.ofSeconds(30)).get(ref);
        }

        int sweep() {
            return store.sweepOrphans(Duration.ZERO, null).await().atMost(Duration.ofMinutes(5));
        }
    }

    private static long hash(String s) {
        long h = 1125899906842597L;
        for (int i = 0; i < s.length(); i++) {
            h = 31 * h + s.charAt(i);
        }
        return h;
    }
}
