package io.jobmon.logs.bench;

import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.JobSnapshot;
import io.jobmon.contracts.events.JobStatus;
import io.jobmon.testsupport.BenchKafka;
import io.jobmon.testsupport.EmbeddedKafka;
import io.jobmon.testsupport.EmbeddedPostgresDb;
import io.jobmon.testsupport.ServiceProcess;
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
 * follow (SSE over HTTP) is opened on the second, and another through the gateway in front of it (when
 * {@code ../gateway} is built); lines are produced at a steady {@code rate}/s (default 5,000) for
 * {@code seconds} (60) across 8 pods, after 15 s of the same rate not measured; for every line, the time from its
 * production to its arrival at the follower.
 * Prints p50/p99/max per follow, lines lost and repeated, and which partitions each replica consumed.
 */
public final class FollowLatencyBenchmark {

    public static void main(String[] args) throws Exception {
        int rate = args.length > 0 ? Integer.parseInt(args[0]) : 5000;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 60;
        String run = Long.toString(System.currentTimeMillis(), 36);
        String bootstrap = EmbeddedKafka.bootstrapServers();
        EmbeddedPostgresDb.Connection pg = EmbeddedPostgresDb.connection();
        String topic = "follow.logs.lines." + run;
        BenchKafka.createTopic(bootstrap, topic, 4);
        BenchKafka.createTopic(bootstrap, topic + ".job-changes", 1);
        OidcWiremockTestResource oidc = new OidcWiremockTestResource();
        Map<String, String> oidcConfig = oidc.start();
        String db = Bench.freshDatabase(pg, "follow_" + run);
        Map<String, String> props = new HashMap<>();
        props.put("quarkus.oidc.tenant-enabled", "true");
        props.put("quarkus.oidc.auth-server-url", oidcConfig.get("keycloak.url") + "/realms/quarkus");
        props.put("jobmon.logs.follow.per-user-limit", "10");
        ServiceProcess a = Bench.service("a", bootstrap, db, pg.user(), pg.password(), topic, "follow-" + run, props);
        ServiceProcess b = Bench.service("b", bootstrap, db, pg.user(), pg.password(), topic, "follow-" + run, props);
        a.start();
        b.start();
        int gatewayPort = ServiceProcess.freePort();
        Process gateway = gateway(gatewayPort, "http://127.0.0.1:" + b.port, props.get("quarkus.oidc.auth-server-url"));
        String job = "follow-" + run;
        JobSnapshot s = new JobSnapshot(job, "t1", "alice", "project-nlp", "PRIVATE", List.of(), "latency", "local", "local",
                "default", JobStatus.RUNNING, null, "A800", 8, List.of(), List.of(), false, false, 0, 0, Instant.now(),
                Instant.now(), null, 1, false);
        try (KafkaProducer<String, String> producer = BenchKafka.producer(bootstrap)) {
            producer.send(new ProducerRecord<>(topic + ".job-changes", job, CloudEvents.encode("/bench", JobSnapshot.TYPE, job, s)));
            producer.flush();
            int total = rate * seconds;
            String path = "/api/v1/jobs/" + job + "/logs/stream?type=user";
            Follower direct = Follower.open("replica b", "http://127.0.0.1:" + b.port + path, total);
            Follower viaGateway = gateway == null ? null
                    : Follower.open("the gateway (to replica b)", "http://127.0.0.1:" + gatewayPort + path, total);
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
            direct.reader.join(30_000);
            if (viaGateway != null) {
                viaGateway.reader.join(30_000);
            }
            java.util.Properties ap = new java.util.Properties();
            ap.put("bootstrap.servers", bootstrap);
            try (org.apache.kafka.clients.admin.Admin admin = org.apache.kafka.clients.admin.Admin.create(ap)) {
                admin.describeConsumerGroups(List.of("follow-" + run)).all().get().values().forEach(g -> g.members()
                        .forEach(m -> System.out.printf("consumer %s (%s) holds %s%n", m.consumerId(), m.host(),
                                m.assignment().topicPartitions())));
            }
            try (var c = Bench.db(db, pg.user(), pg.password())) {
                System.out.printf("%,d lines/s for %d s; partitions stored by the two replicas: %s%n", rate, seconds,
                        BenchKafka.scalar(c, "SELECT count(DISTINCT kafka_partition) FROM logs.chunk"));
            }
            direct.print();
            if (viaGateway != null) {
                viaGateway.print();
            } else {
                System.out.println("through the gateway: not measured (build ../gateway first)");
            }
        } finally {
            a.stop();
            b.stop();
            if (gateway != null) {
                gateway.destroy();
                gateway.waitFor();
            }
            oidc.stop();
        }
        System.exit(0);
    }

    /**
     * The packaged gateway ({@code ../gateway/target/quarkus-app}) in front of replica b, checking tokens against the same
     * OIDC server, its per-user rate limit out of the way; null when it is not built.
     */
    static Process gateway(int port, String logsBase, String oidcUrl) throws java.io.IOException {
        java.nio.file.Path jar = java.nio.file.Path.of("../gateway/target/quarkus-app/quarkus-run.jar");
        if (!java.nio.file.Files.exists(jar)) {
            return null;
        }
        List<String> cmd = new java.util.ArrayList<>(List.of(java.nio.file.Path.of(System.getProperty("java.home"), "bin",
                "java").toString(), "-Xmx512m"));
        Map.of("quarkus.http.port", String.valueOf(port), "quarkus.management.port", String.valueOf(ServiceProcess.freePort()),
                "jobmon.gateway.services.logs", logsBase, "jobmon.gateway.rate-limit.refill", "1000000",
                "jobmon.gateway.rate-limit.burst", "1000000", "quarkus.oidc.auth-server-url", oidcUrl,
                "quarkus.log.level", "WARN").forEach((k, v) -> cmd.add("-D" + k + "=" + v));
        cmd.add("-jar");
        cmd.add(jar.toString());
        return new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(java.io.File.createTempFile("follow-gateway-", ".log")).start();
    }

    /** A follow (SSE) and, per line of the measured run, the time from its production to its arrival here. */
    static final class Follower {
        final String name;
        final long[] latency;
        final AtomicLong repeated = new AtomicLong();
        final AtomicLong received = new AtomicLong();
        Thread reader;

        private Follower(String name, int total) {
            this.name = name;
            this.latency = new long[total];
            Arrays.fill(latency, -1);
        }

        /** Opens the follow (retrying while the service or gateway starts) and reads it on a thread of its own. */
        static Follower open(String name, String url, int total) throws Exception {
            HttpClient http = HttpClient.newHttpClient();
            HttpResponse<java.io.InputStream> r = null;
            long until = System.currentTimeMillis() + 120_000;
            while (System.currentTimeMillis() < until) {
                try {
                    r = http.send(HttpRequest.newBuilder(URI.create(url)).header("Authorization", "Bearer " + Tokens.alice())
                            .build(), HttpResponse.BodyHandlers.ofInputStream());
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
                throw new IllegalStateException("no follow from " + name + ": " + (r == null ? "down" : r.statusCode()));
            }
            Follower f = new Follower(name, total);
            BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8));
            f.reader = new Thread(() -> f.read(in));
            f.reader.setDaemon(true);
            f.reader.start();
            return f;
        }

        private void read(BufferedReader in) {
            try {
                String line;
                while ((line = in.readLine()) != null && received.get() < latency.length) {
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
                System.out.println("follow from " + name + " ended: " + e);
            }
        }

        void print() {
            long[] got = Arrays.stream(latency).filter(l -> l >= 0).sorted().toArray();
            if (got.length == 0) {
                System.out.printf("follow through %s: nothing delivered%n", name);
                return;
            }
            System.out.printf("follow through %s: %,d of %,d delivered, %d repeated; p50 %.0f ms, p99 %.0f ms, max %.0f ms%n",
                    name, got.length, latency.length, repeated.get(), got[got.length / 2] / 1e6,
                    got[(int) (got.length * 0.99)] / 1e6, got[got.length - 1] / 1e6);
        }
    }
}
