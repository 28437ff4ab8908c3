package io.jobmon.events.bench;

import io.jobmon.contracts.events.K8sRawObject;
import io.jobmon.contracts.messaging.Envelopes;
import io.jobmon.events.k8s.EventParser;
import io.jobmon.events.k8s.PodParser;
import io.jobmon.testsupport.BenchKafka;
import io.jobmon.testsupport.ServiceProcess;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/** Kafka and PostgreSQL plumbing shared by the benchmark and the fault test. */
final class Bench {

    private Bench() {
    }

    /** Produces every job's records, jobs interleaved in waves (per-key order kept); returns the count. */
    static long produce(KafkaProducer<String, String> producer, String topic, Workload w, List<String> jobs) {
        long n = 0;
        int wave = 500;
        for (int from = 0; from < jobs.size(); from += wave) {
            List<List<Workload.Raw>> batch = jobs.subList(from, Math.min(jobs.size(), from + wave)).stream().map(w::job).toList();
            for (int i = 0; i < Workload.PER_JOB; i++) {
                for (List<Workload.Raw> job : batch) {
                    Workload.Raw r = job.get(i);
                    producer.send(new ProducerRecord<>(topic, r.key(), r.value()));
                    n++;
                }
            }
        }
        producer.flush();
        return n;
    }

    /** Reads the topic from the start with a plain consumer until {@code total} records came; returns seconds. */
    static double plainRead(String bootstrap, String topic, long total) {
        long start = System.nanoTime();
        long seen = 0;
        try (KafkaConsumer<String, String> c = BenchKafka.consumer(bootstrap, topic, 1000)) {
            while (seen < total) {
                seen += c.poll(Duration.ofMillis(200)).count();
            }
        }
        return (System.nanoTime() - start) / 1e9;
    }

    /**
     * The parsing floor: a plain consumer that reads the topic from the start and decodes every record with
     * Jackson into the views the service keeps — the CloudEvent with its object as a tree, then {@link PodParser}
     * or {@link EventParser} — and stores nothing. Fixed on purpose (not the service's own decoder), so it stays
     * the same yardstick whatever the service does.
     *
     * @param cpu receives the consumer thread's CPU seconds
     * @return seconds until {@code total} records were decoded
     */
    static double parsingFloor(String bootstrap, String topic, long total, double[] cpu) {
        var threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long cpu0 = threads.getCurrentThreadCpuTime();
        long start = System.nanoTime();
        long seen = 0;
        long pods = 0;
        long events = 0;
        try (KafkaConsumer<String, String> c = BenchKafka.consumer(bootstrap, topic, 1000)) {
            while (seen < total) {
                for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(200))) {
                    K8sRawObject raw = Envelopes.K8S_RAW.data(r.key(), r.value());
                    if ("Pod".equals(raw.kind())) {
                        pods += PodParser.parse(raw.object(), "DELETED".equals(raw.watchType())).containers().size();
                    } else {
                        events += EventParser.parse(raw.object()).count();
                    }
                    seen++;
                }
            }
        }
        if (pods == 0 || events == 0) {
            throw new IllegalStateException("nothing parsed");
        }
        cpu[0] = (threads.getCurrentThreadCpuTime() - cpu0) / 1e9;
        return (System.nanoTime() - start) / 1e9;
    }

    static Connection db(String url, String user, String password) throws SQLException {
        // The service names its tables unqualified; this connection looks in its schema too.
        return DriverManager.getConnection("jdbc:" + url + (url.contains("?") ? "&" : "?") + "currentSchema=events", user, password);
    }

    /** Records applied so far (the offsets the service stored with its effects). */
    static long applied(Connection c) {
        return BenchKafka.scalar(c, "SELECT coalesce(sum(next_offset), 0) FROM consumer_offset WHERE topic NOT LIKE 'test.%'");
    }

    /** event-ingest-service as a process on the benchmark's broker and database, with its own topics and group. */
    static ServiceProcess service(String name, String bootstrap, String dbUrl, String user, String password,
            String rawTopic, String statusTopic, String group) throws java.io.IOException {
        Map<String, String> props = ServiceProcess.on(bootstrap, dbUrl, user, password);
        props.put("jobmon.watch.enabled", "false");
        props.put("mp.messaging.incoming.k8s-raw.topic", rawTopic);
        props.put("mp.messaging.incoming.k8s-raw.group.id", group);
        props.put("mp.messaging.incoming.k8s-raw.dead-letter-queue.topic", rawTopic + ".dlq");
        props.put("jobmon.events.status-topic", statusTopic);
        props.put("mp.messaging.incoming.job-changes.group.id", group + "-changes");
        return new ServiceProcess(name, java.nio.file.Path.of("target/quarkus-app/quarkus-run.jar"), "-Xmx1g", props);
    }
}
