package io.jobmon.logs.bench;

import io.jobmon.logs.chunk.ChunkCodec;
import io.jobmon.logs.chunk.ChunkData;
import io.jobmon.testsupport.BenchKafka;
import io.jobmon.testsupport.EmbeddedKafka;
import io.jobmon.testsupport.EmbeddedPostgresDb;
import io.jobmon.testsupport.ServiceProcess;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Fault test (a program, not a test): log-service (a separate process) is killed with SIGKILL a third of the way
 * through ingesting {@code records} unique lines (default 300,000), then started again. Every line must be stored
 * exactly once: the store's lines, decoded from every chunk, are compared with what was produced (count, a checksum
 * of the texts, and no Kafka position twice). Exit code 0 when they match.
 */
public final class IngestFaultTest {

    public static void main(String[] args) throws Exception {
        long records = args.length > 0 ? Long.parseLong(args[0]) : 300_000;
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
        Map<String, String> props = Map.of("jobmon.logs.intake.unknown-job-grace", "24h", "jobmon.logs.masking.enabled", "false");
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
            try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT c.kafka_partition, b.body FROM"
                    + " logs.chunk c JOIN logs.chunk_body b ON b.day = c.day AND b.id = c.id")) {
                while (r.next()) {
                    ChunkData d = ChunkCodec.decode(r.getBytes(2));
                    for (int i = 0; i < d.size; i++) {
                        lines++;
                        sum += hash(d.line(i));
                        if (!positions.add(r.getInt(1) + ":" + d.offsets[i] + ":" + d.subs[i])) {
                            duplicates++;
                        }
                    }
                }
            }
            boolean same = lines == records && sum == checksum && duplicates == 0;
            System.out.printf("%s: %,d lines stored of %,d produced, checksum %s, %d positions twice%n",
                    same ? "EXACTLY ONCE" : "DIFFERENT", lines, records, sum == checksum ? "equal" : "DIFFERENT", duplicates);
            System.out.println("service log: " + service.log());
            System.exit(same ? 0 : 1);
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
