package io.jobmon.logs.bench;

import io.jobmon.testsupport.BenchKafka;
import io.jobmon.testsupport.EmbeddedKafka;
import io.jobmon.testsupport.EmbeddedPostgresDb;
import io.jobmon.testsupport.ServiceProcess;
import java.sql.Connection;
import java.time.Instant;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Ingest throughput and storage cost of log-service (a program, not a test; command in the README). Arguments:
 * {@code lines} (default 10,000,000), {@code partitions} (4), {@code pods} (16).
 *
 * <ol>
 * <li>Produces {@code lines} Fluent Bit records (one line each, the kubernetes filter's metadata) of one job's
 * {@code pods}, keyed by pod, realistic training output ({@link Workload}), to a fresh topic.</li>
 * <li>The parsing floor: a plain consumer reads and JSON-parses every record.</li>
 * <li>The service (a separate process, fresh database and group, masking on) ingests them: lines/s and MB/s of raw
 * text from its first stored flush to its last.</li>
 * <li>Once compaction has merged every flushed chunk: bytes on disk of the chunk tables (index, filters, bodies,
 * TOAST, indexes) per raw byte.</li>
 * </ol>
 */
public final class IngestBenchmark {

    public static void main(String[] args) throws Exception {
        long lines = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000;
        int partitions = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        int pods = args.length > 2 ? Integer.parseInt(args[2]) : 16;
        String run = Long.toString(System.currentTimeMillis(), 36);
        String bootstrap = EmbeddedKafka.bootstrapServers();
        EmbeddedPostgresDb.Connection pg = EmbeddedPostgresDb.connection();
        String topic = "bench.logs.lines." + run;
        BenchKafka.createTopic(bootstrap, topic, partitions);
        String job = "bench-" + run;
        long raw = 0;
        long recordBytes = 0;
        long t0 = System.nanoTime();
        Instant start = Instant.parse("2026-07-13T00:00:00Z");
        try (KafkaProducer<String, String> producer = BenchKafka.producer(bootstrap)) {
            Workload[] w = new Workload[pods];
            for (int p = 0; p < pods; p++) {
                w[p] = new Workload(p, p);
            }
            for (long i = 0; i < lines; i++) {
                int p = (int) (i % pods);
                String line = w[p].next();
                String pod = "llama-sft-worker-" + p;
                String value = Bench.fluentBit(job, pod, p, start.plusNanos(i * 100_000L), line);
                raw += line.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
                recordBytes += value.length();
                producer.send(new ProducerRecord<>(topic, "local/team-nlp/" + pod + "/trainer", value));
            }
            producer.flush();
        }
        System.out.printf("produced %,d records (%,.0f MB of records, %,.0f MB of log text) in %.1f s%n", lines,
                recordBytes / 1e6, raw / 1e6, (System.nanoTime() - t0) / 1e9);
        double[] plainCpu = new double[1];
        double plain = Bench.plainReadAndParse(bootstrap, topic, lines, plainCpu);
        System.out.printf("parsing floor (read + JSON-parse): %,.0f lines/s (%.1f s)%n", lines / plain, plain);

        String db = Bench.freshDatabase(pg, "bench_" + run);
        ServiceProcess service = Bench.service("bench", bootstrap, db, pg.user(), pg.password(), topic, "bench-" + run,
                Map.of("jobmon.logs.intake.unknown-job-grace", "24h"));
        service.start();
        try (Connection c = Bench.db(db, pg.user(), pg.password())) {
            while (Bench.applied(c, topic) <= 0) {
                Thread.sleep(20);
            }
            long first = Bench.applied(c, topic);
            long s0 = System.nanoTime();
            double cpu0 = service.cpuSeconds();
            long done;
            while ((done = Bench.applied(c, topic)) < lines) {
                Thread.sleep(50);
            }
            double secs = (System.nanoTime() - s0) / 1e9;
            double cpu = service.cpuSeconds() - cpu0;
            long measured = done - first;
            double rate = measured / secs;
            System.out.printf("service: %,d lines in %.1f s = %,.0f lines/s, %.1f MB/s of log text (%.0f%% of the parsing"
                    + " floor)%n", measured, secs, rate, rate * raw / lines / 1e6, 100 * rate / (lines / plain));
            System.out.printf("service CPU: %.1f µs per line (all its threads, GC included; %.2f cores busy), the parsing"
                    + " floor's consumer thread %.1f µs%n", cpu * 1e6 / measured, cpu / secs, plainCpu[0] * 1e6 / lines);
            long c0 = System.nanoTime();
            while (BenchKafka.scalar(c, "SELECT count(*) FROM logs.chunk WHERE level = 0") > 0) {
                Thread.sleep(1000);
            }
            System.out.printf("compaction finished %.0f s after the last flush%n", (System.nanoTime() - c0) / 1e9);
            c.createStatement().execute("VACUUM ANALYZE");
            long stored = BenchKafka.scalar(c, "SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c JOIN pg_namespace n"
                    + " ON n.oid = c.relnamespace WHERE n.nspname = 'logs' AND c.relkind = 'r' AND (c.relname LIKE 'chunk_p%'"
                    + " OR c.relname LIKE 'chunk_body_p%')");
            long bodies = BenchKafka.scalar(c, "SELECT sum(stored_bytes) FROM logs.chunk");
            long filters = BenchKafka.scalar(c, "SELECT sum(length(filter)) FROM logs.chunk");
            long chunks = BenchKafka.scalar(c, "SELECT count(*) FROM logs.chunk");
            long storedLines = BenchKafka.scalar(c, "SELECT sum(lines) FROM logs.chunk");
            System.out.printf("storage: %,d lines in %,d chunks; %,.1f MB on disk for %,.1f MB of text = %.3f per raw byte"
                    + " (bodies %.3f, filters %.3f; the files still hold the space of compacted flushes, reused by later"
                    + " ones)%n", storedLines, chunks, stored / 1e6, raw / 1e6, (double) stored / raw,
                    (double) bodies / raw, (double) filters / raw);
            c.createStatement().execute("VACUUM FULL logs.chunk, logs.chunk_body");
            long live = BenchKafka.scalar(c, "SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c JOIN pg_namespace n"
                    + " ON n.oid = c.relnamespace WHERE n.nspname = 'logs' AND c.relkind = 'r' AND (c.relname LIKE 'chunk_p%'"
                    + " OR c.relname LIKE 'chunk_body_p%')");
            System.out.printf("storage after VACUUM FULL (live chunks only): %,.1f MB = %.3f per raw byte%n", live / 1e6,
                    (double) live / raw);
        } finally {
            service.stop();
            System.out.println("service log: " + service.log());
        }
        System.exit(0);
    }
}
