package io.jobmon.logs.bench;

import io.jobmon.testsupport.EmbeddedPostgresDb;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** Kafka and PostgreSQL plumbing of the benchmarks and the fault test. */
final class Bench {

    private Bench() {
    }

    static void createTopic(String bootstrap, String topic, int partitions) throws Exception {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        try (Admin admin = Admin.create(p)) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get();
        }
    }

    static KafkaProducer<String, String> producer(String bootstrap) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, "262144");
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        return new KafkaProducer<>(p);
    }

    static KafkaConsumer<String, String> consumer(String bootstrap, String topic) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "bench-plain-" + UUID.randomUUID());
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        KafkaConsumer<String, String> c = new KafkaConsumer<>(p);
        c.subscribe(List.of(topic));
        return c;
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
        try (KafkaConsumer<String, String> c = consumer(bootstrap, topic)) {
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

    static long scalar(Connection c, String sql) {
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            return r.next() ? r.getLong(1) : 0;
        } catch (SQLException e) {
            return -1; // the schema is not there yet
        }
    }

    /** Records whose lines are stored (the offsets saved with them). */
    static long applied(Connection c, String topic) {
        return scalar(c, "SELECT coalesce(sum(next_offset), 0) FROM logs.consumer_offset WHERE topic = '" + topic + "'");
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
}
