package io.jobmon.events.bench;

import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.JobStatusChanged;
import io.jobmon.testsupport.BenchKafka;
import io.jobmon.testsupport.EmbeddedKafka;
import io.jobmon.testsupport.EmbeddedPostgresDb;
import io.jobmon.testsupport.ServiceProcess;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * Fault test (a program, not a test): the same records ingested twice into two databases, once without
 * interruption and once with the service killed with SIGKILL mid-ingestion and started again. The stores and the
 * last published status of every job must be identical. Argument: {@code records} (default 200,000).
 */
public final class IngestFaultTest {

    public static void main(String[] args) throws Exception {
        long records = args.length > 0 ? Long.parseLong(args[0]) : 200_000;
        String run = Long.toString(System.currentTimeMillis(), 36);
        String bootstrap = EmbeddedKafka.bootstrapServers();
        EmbeddedPostgresDb.Connection pg = EmbeddedPostgresDb.connection();
        String raw = "fault.k8s.raw." + run;
        BenchKafka.createTopic(bootstrap, raw, 4);
        List<String> jobs = new ArrayList<>();
        for (int i = 0; i < records / Workload.PER_JOB; i++) {
            jobs.add("f" + run + "-" + i);
        }
        long total;
        try (KafkaProducer<String, String> p = BenchKafka.producer(bootstrap)) {
            total = Bench.produce(p, raw, new Workload("fault"), jobs);
        }
        System.out.printf("produced %,d records of %,d jobs%n", total, jobs.size());
        Map<String, String> a = ingest(pg, bootstrap, raw, total, run, "a", false);
        Map<String, String> b = ingest(pg, bootstrap, raw, total, run, "b", true);
        List<String> diff = new ArrayList<>();
        for (String k : a.keySet()) {
            if (!a.get(k).equals(b.get(k))) {
                diff.add(k + ": uninterrupted " + a.get(k) + " / killed " + b.get(k));
            }
        }
        System.out.println(diff.isEmpty() ? "IDENTICAL: " + a.size() + " figures compared" : "DIFFERENT: " + diff);
        System.exit(diff.isEmpty() ? 0 : 1);
    }

    /** Ingests the topic into a fresh database; with {@code kill}, SIGKILLs the service a third of the way in. */
    static Map<String, String> ingest(EmbeddedPostgresDb.Connection pg, String bootstrap, String raw, long total,
            String run, String name, boolean kill) throws Exception {
        String dbName = "fault_" + run + "_" + name;
        try (Connection admin = Bench.db(pg.url(), pg.user(), pg.password()); Statement s = admin.createStatement()) {
            s.execute("CREATE DATABASE " + dbName);
        }
        String url = pg.url().substring(0, pg.url().lastIndexOf('/') + 1) + dbName;
        String status = "fault.job.status." + run + "." + name;
        BenchKafka.createTopic(bootstrap, status, 4);
        ServiceProcess service = Bench.service(name, bootstrap, url, pg.user(), pg.password(), raw, status, "fault-" + name + run);
        service.start();
        try (Connection db = Bench.db(url, pg.user(), pg.password())) {
            if (kill) {
                while (Bench.applied(db) < total / 3) {
                    Thread.sleep(10);
                }
                service.kill();
                System.out.printf("[%s] killed -9 at %,d of %,d records applied%n", name, Bench.applied(db), total);
                service.start();
            }
            while (Bench.applied(db) < total || BenchKafka.scalar(db, "SELECT count(*) FROM outbox") != 0) {
                Thread.sleep(100);
            }
            Map<String, String> figures = new TreeMap<>();
            figures.put("records applied", String.valueOf(Bench.applied(db)));
            for (String table : new String[] {"pod_state", "event", "event_quota", "job_state"}) {
                figures.put(table + " rows", String.valueOf(BenchKafka.scalar(db, "SELECT count(*) FROM " + table)));
            }
            figures.put("event occurrences", String.valueOf(BenchKafka.scalar(db, "SELECT sum(count) FROM event")));
            figures.put("pod versions", String.valueOf(BenchKafka.scalar(db, "SELECT sum(resource_version) FROM pod_state")));
            figures.put("omitted", String.valueOf(BenchKafka.scalar(db, "SELECT coalesce(sum(omitted_occurrences),0) FROM event_quota")));
            try (Statement s = db.createStatement(); ResultSet r = s.executeQuery(
                    "SELECT status || '/' || coalesce(reason,'') || '/' || sequence, count(*) FROM job_state GROUP BY 1")) {
                while (r.next()) {
                    figures.put("jobs " + r.getString(1), r.getString(2));
                }
            }
            Map<String, String> last = lastPublished(bootstrap, status, (int) (total / Workload.PER_JOB));
            Map<String, Integer> byStatus = new TreeMap<>();
            last.values().forEach(v -> byStatus.merge(v, 1, Integer::sum));
            byStatus.forEach((k, v) -> figures.put("last published " + k, String.valueOf(v)));
            System.out.printf("[%s] %s%n", name, figures);
            return figures;
        } finally {
            service.stop();
        }
    }

    /** The highest-sequence transition published for each job (duplicates after a crash have equal sequences). */
    static Map<String, String> lastPublished(String bootstrap, String topic, int jobs) {
        Map<String, JobStatusChanged> last = new TreeMap<>();
        long quiet = System.currentTimeMillis() + 5000;
        try (KafkaConsumer<String, String> c = BenchKafka.consumer(bootstrap, topic, 1000)) {
            while (System.currentTimeMillis() < quiet) {
                for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(200))) {
                    JobStatusChanged s = CloudEvents.decode(r.value(), JobStatusChanged.class).data();
                    last.merge(s.jobId(), s, (x, y) -> y.sequence() > x.sequence() ? y : x);
                    quiet = System.currentTimeMillis() + 3000;
                }
            }
        }
        Map<String, String> out = new TreeMap<>();
        last.forEach((k, v) -> out.put(k, v.status() + "/" + v.sequence()));
        return out;
    }
}
