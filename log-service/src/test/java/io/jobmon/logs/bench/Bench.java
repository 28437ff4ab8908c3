package io.jobmon.logs.bench;

import io.jobmon.testsupport.BenchKafka;
import io.jobmon.testsupport.EmbeddedPostgresDb;
import io.jobmon.testsupport.ServiceProcess;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;

/** Kafka and PostgreSQL plumbing of the benchmarks and the fault test. */
final class Bench {

    private Bench() {
    }

    /**
     * The parsing floor: a plain consumer that reads the topic from the start and JSON-parses every record (a Jackson
     * tree, as any consumer of these records must at least do); returns seconds, and in {@code cpu[0]} the CPU seconds
     * of the consuming thread (the Kafka consumer works in it).
     */
    static double plainReadAndParse(String bootstrap, String topic, long total, double[] cpu) throws Exception {
        var mapper = new com.fasterxml.jackson.databind.ObjectMapper();
        var threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long cpu0 = threads.getCurrentThreadCpuTime();
        long start = System.nanoTime();
        long seen = 0;
        long fields = 0;
        try (KafkaConsumer<String, String> c = BenchKafka.consumer(bootstrap, topic, 5000)) {
            while (seen < total) {
                for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(200))) {
                    fields += mapper.readTree(r.value()).size();
                    seen++;
                }
            }
        }
        if (fields == 0) {
            throw new IllegalStateException("nothing parsed");
        }
        cpu[0] = (threads.getCurrentThreadCpuTime() - cpu0) / 1e9;
        return (System.nanoTime() - start) / 1e9;
    }

    /** A fresh database on the benchmark's PostgreSQL; @return its URL (without jdbc:). */
    static String freshDatabase(EmbeddedPostgresDb.Connection pg, String name) throws SQLException {
        try (Connection admin = db(pg.url(), pg.user(), pg.password()); Statement s = admin.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        }
        return pg.url().substring(0, pg.url().lastIndexOf('/') + 1) + name;
    }

    static Connection db(String url, String user, String password) throws SQLException {
        return DriverManager.getConnection("jdbc:" + url, user, password);
    }

    /** Records whose lines are stored (the offsets saved with them). */
    static long applied(Connection c, String topic) {
        return BenchKafka.scalar(c, "SELECT coalesce(sum(next_offset), 0) FROM logs.consumer_offset WHERE topic = '" + topic + "'");
    }

    /** A Fluent Bit record (tail + cri parser, kubernetes filter, kafka output format json) of one line. */
    static String fluentBit(String job, String pod, int rank, Instant time, String line) {
        return "{\"@timestamp\":" + time.getEpochSecond() + "." + String.format("%06d", time.getNano() / 1000)
                + ",\"time\":\"" + time + "\",\"stream\":\"stdout\",\"_p\":\"F\",\"log\":"
                + io.jobmon.contracts.events.CloudEvents.toJson(line)
                + ",\"kubernetes\":{\"pod_name\":\"" + pod + "\",\"namespace_name\":\"team-nlp\",\"pod_id\":\"5f0c2a8e-4b7d-4a8f-9c61-"
                + String.format("%012d", rank) + "\",\"labels\":{\"app\":\"llama-sft\",\"jobmon.io/job-id\":\"" + job
                + "\",\"training.kubeflow.org/replica-index\":\"" + rank + "\"},\"annotations\":{\"kubectl.kubernetes.io/"
                + "default-container\":\"trainer\"},\"host\":\"gpu-node-" + String.format("%02d", rank % 16)
                + "\",\"pod_ip\":\"10.244.3." + rank + "\",\"container_name\":\"trainer\",\"docker_id\":\"3e5b1c9a8f7d6e5c4b3a2918f7e6d5c4b3a29180f7e6d5c4b3a29180f7e6d5c4\","
                + "\"container_hash\":\"registry.local/llm/trainer@sha256:9b1f0c1f2a3d4e5f60718293a4b5c6d7e8f90123456789abcdef0123456789ab\","
                + "\"container_image\":\"registry.local/llm/trainer:2.4\"}}";
    }

    /** log-service as a process on the benchmark's broker and database, with its own topic and group. */
    static ServiceProcess service(String name, String bootstrap, String dbUrl, String user, String password, String topic,
            String group, Map<String, String> extra) throws java.io.IOException {
        Map<String, String> props = ServiceProcess.on(bootstrap, dbUrl, user, password);
        props.put("mp.messaging.incoming.logs-lines.topic", topic);
        props.put("mp.messaging.incoming.logs-lines.group.id", group);
        props.put("mp.messaging.incoming.logs-lines.dead-letter-queue.topic", topic + ".dlq");
        props.put("mp.messaging.incoming.job-changes.topic", topic + ".job-changes");
        props.put("mp.messaging.incoming.job-changes.group.id", group + "-changes");
        props.putAll(extra);
        return new ServiceProcess(name, java.nio.file.Path.of("target/quarkus-app/quarkus-run.jar"), ServiceProcess.heap(),
                props);
    }

    /** Root logger at INFO: unconfigured, the JBoss log manager leaves DEBUG on, and Netty's wire logging hex-dumps. */
    static final org.jboss.logmanager.Logger ROOT = org.jboss.logmanager.Logger.getLogger("");

    static void quietLogging() {
        ROOT.setLevel(java.util.logging.Level.INFO);
    }
}
