package io.jobmon.logs.bench;

import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.JobSnapshot;
import io.jobmon.contracts.events.JobStatus;
import io.jobmon.testsupport.EmbeddedKafka;
import io.jobmon.testsupport.EmbeddedPostgresDb;
import io.jobmon.testsupport.Tokens;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Follow latency (a program, not a test): two replicas of log-service in one consumer group share the topic; a
 * follow (SSE over HTTP) is opened on the second; lines are produced at a steady {@code rate}/s (default 5,000) for
 * {@code seconds} (60) across 8 pods, after 15 s of the same rate not measured; for every line, the time from its
 * production to its arrival at the follower.
 * Prints p50/p99/max, lines lost and repeated, and how many lines the other replica consumed.
 */
public final class FollowLatencyBenchmark {

    public static void main(String[] args) throws Exception {
        int rate = args.length > 0 ? Integer.parseInt(args[0]) : 5000;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 60;
        String run = Long.toString(System.currentTimeMillis(), 36);
        String bootstrap = EmbeddedKafka.bootstrapServers();
        EmbeddedPostgresDb.Connection pg = EmbeddedPostgresDb.connection();
        String topic = "follow.logs.lines." + run;
        Bench.createTopic(bootstrap, topic, 4);
        Bench.createTopic(bootstrap, topic + ".job-changes", 1);
        OidcWiremockTestResource oidc = new OidcWiremockTestResource();
        Map<String, String> oidcConfig = oidc.start();
        String db = Bench.freshDatabase(pg, "follow_" + run);
        Map<String, String> props = new HashMap<>();
        props.put("quarkus.oidc.tenant-enabled", "true");
        props.put("quarkus.oidc.auth-server-url", oidcConfig.get("keycloak.url") + "/realms/quarkus");
        props.put("jobmon.logs.follow.per-user-limit", "10");
        ServiceProcess a = new ServiceProcess("a", bootstrap, db, pg.user(), pg.password(), topic, "follow-" + run, props);
        ServiceProcess b = new ServiceProcess("b", bootstrap, db, pg.user(), pg.password(), topic, "follow-" + run, props);
        a.start();
        b.start();
        String job = "follow-" + run;
        JobSnapshot s = new JobSnapshot(job, "t1", "alice", "project-nlp", "PRIVATE", List.of(), "latency", "local", "local",
                "default", JobStatus.RUNNING, null, "A800", 8, List.of(), List.of(), false, false, 0, 0, Instant.now(),
                Instant.now(), null, 1, false);
        try (KafkaProducer<String, String> producer = Bench.producer(bootstrap)) {
            producer.send(new ProducerRecord<>(topic + ".job-changes", job, CloudEvents.encode("/bench", JobSnapshot.TYPE, job, s)));
            producer.flush();
            HttpClient http = HttpClient.newHttpClient();
            URI stream = URI.create("http://127.0.0.1:" + b.port + "/api/v1/jobs/" + job + "/logs/stream?type=user");
            HttpResponse<java.io.InputStream> r = null;
            long until = System.currentTimeMillis() + 120_000;
            while (System.currentTimeMillis() < until) {
                try {
                    r = http.send(HttpRequest.newBuilder(stream).header("Authorization", "Bearer " + Tokens.alice()).build(),
                            HttpResponse.BodyHandlers.ofInputStream());
                    if (r.statusCode() == 200) {
                        break;
                    }
                    r.body().close();
                } catch (java.io.IOException e) {
                    // not up yet
                }
                Thread.sleep(500);
            }
            if (r == null || r.statusCode() != 200) {
                throw new IllegalStateException("no follow: " + (r == null ? "service down" : r.statusCode()));
            }
            int total = rate * seconds;
            long[] latency = new long[total];
            Arrays.fill(latency, -1);
            AtomicLong repeated = new AtomicLong();
            AtomicLong received = new AtomicLong();
            BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8));
            Thread reader = new Thread(() -> {
                try {
                    String line;
                    while ((line = in.readLine()) != null && received.get() < total) {
                        int at = line.indexOf("\"line\":\"lat ");
                        if (!line.startsWith("data: ") || at < 0) {
                            continue;
                        }
                        long now = System.nanoTime();
                        String[] f = line.substring(at + 12, line.indexOf('"', at + 12)).split(" ");
                        int seq = Integer.parseInt(f[0]);
                        if (latency[seq] >= 0) {
                            repeated.incrementAndGet();
                        } else {
                            latency[seq] = now - Long.parseLong(f[1]);
                            received.incrementAndGet();
                        }
                    }
                } catch (Exception e) {
                    System.out.println("follow ended: " + e);
                }
            });
            reader.setDaemon(true);
            reader.start();
            // Warm-up: the same rate for 15 s (both replicas joined the group, JIT compiled), not measured.
            long warmStart = System.nanoTime();
            for (int i = 0; i < rate * 15; i++) {
                long due = warmStart + (long) (i * 1e9 / rate);
                while (System.nanoTime() < due) {
                    Thread.onSpinWait();
                }
                int pod = i % 8;
                producer.send(new ProducerRecord<>(topic, "local/team-nlp/w" + pod + "/trainer",
                        Bench.fluentBit(job, job + "-w" + pod, pod, Instant.now(), "warm " + i + " loss=1.0")));
            }
            long start = System.nanoTime();
            for (int i = 0; i < total; i++) {
                long due = start + (long) (i * 1e9 / rate);
                while (System.nanoTime() < due) {
                    Thread.onSpinWait();
                }
                int pod = i % 8;
                String line = "lat " + i + " " + System.nanoTime() + " step=" + i + " loss=1.234";
                producer.send(new ProducerRecord<>(topic, "local/team-nlp/w" + pod + "/trainer",
                        Bench.fluentBit(job, job + "-w" + pod, pod, Instant.now(), line)));
            }
            producer.flush();
            reader.join(30_000);
            java.util.Properties ap = new java.util.Properties();
            ap.put("bootstrap.servers", bootstrap);
            try (org.apache.kafka.clients.admin.Admin admin = org.apache.kafka.clients.admin.Admin.create(ap)) {
                admin.describeConsumerGroups(List.of("follow-" + run)).all().get().values().forEach(g -> g.members()
                        .forEach(m -> System.out.printf("consumer %s (%s) holds %s%n", m.consumerId(), m.host(),
                                m.assignment().topicPartitions())));
            }
            long[] got = Arrays.stream(latency).filter(l -> l >= 0).sorted().toArray();
            try (var c = Bench.db(db, pg.user(), pg.password())) {
                System.out.printf("follow on replica b at %,d lines/s for %d s: %,d of %,d delivered, %d repeated;"
                        + " p50 %.0f ms, p99 %.0f ms, max %.0f ms; partitions stored by the two replicas: %s%n", rate, seconds,
                        got.length, total, repeated.get(), got[got.length / 2] / 1e6, got[(int) (got.length * 0.99)] / 1e6,
                        got[got.length - 1] / 1e6, Bench.scalar(c, "SELECT count(DISTINCT kafka_partition) FROM logs.chunk"));
            }
        } finally {
            a.stop();
            b.stop();
            oidc.stop();
        }
        System.exit(0);
    }
}
