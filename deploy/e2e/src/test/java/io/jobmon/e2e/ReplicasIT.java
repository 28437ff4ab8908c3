package io.jobmon.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import io.jobmon.sim.stack.StackClient;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static io.jobmon.e2e.SimJobs.awaitTrue;

/**
 * Two replicas of every consuming service ({@code ./jobmon up --replicas 2}; the gateway balances over them): jobs
 * submitted through the gateway run on the sim cluster, the sim's pod records and lines and Fluent Bit lines of the
 * test's own are processed once each, every consumer group has both members holding partitions, one replica watches
 * the sim and each exporter is scraped by one replica, a follow and a diagnosis are served by either replica. Then one
 * replica of each service is killed with SIGKILL under load: the other takes its partitions, its lag comes back to 0,
 * every line (before and after) is counted exactly once and every job still ends SUCCEEDED.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Order(9)
class ReplicasIT {

    private static final List<String> CONSUMERS = List.of("job-service", "event-ingest-service", "metrics-service",
            "log-service", "diagnosis-service");
    private static final String LINES_TOPIC = "jobmon.logs.lines";
    /** Consumers of a topic in one replica when not one: metrics-service's samples (JOBMON_METRICS_CONSUMERS, 2). */
    private static final Map<String, Integer> CONSUMERS_PER_REPLICA = Map.of("jobmon.metrics.samples", 2);
    /** The sim's fleet: 6 nodes, each a dcgm-exporter, a node_exporter and the kubelet's cAdvisor. */
    private static final int SIM_TARGETS = 18;
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private static LocalStack stack;
    private static StackClient client;
    private static Admin admin;
    private static ConsumerGroups groups;
    private static KafkaProducer<String, String> producer;
    private static final String RUN = UUID.randomUUID().toString().substring(0, 8);
    /** Jobs submitted (id -> user). */
    private static final Map<String, String> JOBS = new LinkedHashMap<>();
    private static String linesJob;
    private static long linesSent;

    @BeforeAll
    static void up() {
        // Its own stack, not a shared one: it kills replicas. The shared one holds the same ports.
        SharedStack.stop();
        // Healthy jobs run 90 s: they are still running when the replicas are killed, and end within the test.
        // No local Prometheus/Alertmanager (MonitoringIT has them): metrics-service then scrapes every exporter itself.
        stack = LocalStack.fromSystemProperties().withReplicas(2).withEnv("JOBMON_SIM_RUN_TIME", "90s")
                .withEnv("JOBMON_MONITORING", "0");
        stack.requireFreePorts();
        long start = System.nanoTime();
        assertEquals(0, stack.jobmon(Duration.ofMinutes(12), "up", "--replicas", "2"), "./jobmon up failed: see its output above");
        System.out.printf("[replicas] stack with 2 replicas ready in %d s%n", Duration.ofNanos(System.nanoTime() - start).toSeconds());
        client = new SimJobs(stack).client();
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + stack.kafkaPort);
        admin = Admin.create(p);
        groups = new ConsumerGroups(admin);
        Properties pp = new Properties();
        pp.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + stack.kafkaPort);
        pp.put(ProducerConfig.ACKS_CONFIG, "all");
        pp.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        pp.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        producer = new KafkaProducer<>(pp);
    }

    @AfterAll
    static void down() {
        if (producer != null) {
            producer.close();
        }
        if (admin != null) {
            admin.close();
        }
        if (stack != null) {
            stack.downAndCheck();
        }
    }

    @Test
    @Order(1)
    void everyConsumerGroupHasBothReplicasEachHoldingPartitions() {
        // A service has one consumer per topic it reads (one per channel; metrics-service two for its samples): each
        // topic's partitions split over the consumers of both replicas, none idle.
        awaitTrue("each topic of each group split over both replicas", () -> CONSUMERS.stream().allMatch(g ->
                groups.holders(g).entrySet().stream().allMatch(e -> e.getValue().size() == 2 * perReplica(e.getKey())
                        && !e.getValue().contains(0))),
                Duration.ofMinutes(3), () -> groups.describe(CONSUMERS));
    }

    @Test
    @Order(2)
    void oneReplicaWatchesTheSimAndEachExporterIsScrapedByOneReplica() {
        awaitTrue("one watcher of the sim", () -> watchers().size() == 1, Duration.ofMinutes(2), () -> "watching: " + watchers());
        awaitTrue("each of the sim's " + SIM_TARGETS + " exporters scraped by one replica", () -> {
            Set<String> first = scraped(1);
            Set<String> second = scraped(2);
            Set<String> both = new HashSet<>(first);
            both.retainAll(second);
            Set<String> all = new HashSet<>(first);
            all.addAll(second);
            return both.isEmpty() && all.size() == SIM_TARGETS && !first.isEmpty() && !second.isEmpty();
        }, Duration.ofMinutes(2), () -> "replica 1: " + scraped(1) + ", replica 2: " + scraped(2));
    }

    @Test
    @Order(3)
    void jobsRunAndEveryLineIsCountedOnce() {
        for (String user : List.of("alice", "bob", "carol", "alice")) {
            JOBS.put(submit(user, "replicas-" + RUN + "-" + JOBS.size()), user);
        }
        JOBS.forEach((job, user) -> await(user, job, "RUNNING", Duration.ofMinutes(3)));
        linesJob = JOBS.keySet().iterator().next();
        // The sim's own lines of a job, through log-service.
        awaitTrue("the sim's lines of " + linesJob, () -> client.get("alice", "/api/v1/jobs/" + linesJob + "/logs?limit=5")
                .require("logs").path("items").size() > 0, Duration.ofMinutes(2));
        sendLines("before", 2000);
        awaitCount(linesSent);
        // Pod records: every job's pod seen by event-ingest and shown by job-service.
        JOBS.forEach((job, user) -> assertTrue(client.get(user, "/api/v1/jobs/" + job + "/pods").require("pods")
                .path("items").size() >= 1, job));
    }

    @Test
    @Order(4)
    void aFollowAndADiagnosisAreServedByEitherReplicaAndTheFollowAndTheFileThroughTheGateway() throws Exception {
        String token = client.token("alice");
        for (int r = 1; r <= 2; r++) {
            String url = "http://localhost:" + stack.servicePort("log-service", r) + "/api/v1/jobs/" + linesJob
                    + "/logs/stream?tail=3";
            List<String> seen = follow(url, token);
            assertTrue(seen.contains("event: line") && seen.contains("event: following"), "replica " + r + ": " + seen);
        }
        // what a user does: the follow and the job's log file through the gateway, every line of this run in the file once
        List<String> viaGateway = follow(stack.gateway() + "/api/v1/jobs/" + linesJob + "/logs/stream?tail=3", token);
        assertTrue(viaGateway.contains("event: line") && viaGateway.contains("event: following"), "gateway: " + viaGateway);
        HttpResponse<String> file = Http.get(stack.gateway() + "/api/v1/jobs/" + linesJob + "/logs/download?q=" + RUN, token);
        assertEquals(200, file.statusCode(), file.body());
        assertTrue(file.headers().firstValue("Content-Disposition").orElse("").contains(linesJob),
                file.headers().map().toString());
        assertEquals(linesSent, file.body().lines().filter(l -> l.contains(RUN)).distinct().count(), "lines of run " + RUN);
        assertEquals(linesSent, file.body().lines().filter(l -> l.contains(RUN)).count(), "each once");
        for (int r = 1; r <= 2; r++) {
            int other = 3 - r;
            HttpResponse<String> asked = Http.sendJson("POST", "http://localhost:" + stack.servicePort("diagnosis-service", r)
                    + "/api/v1/jobs/" + linesJob + "/diagnoses", token, Map.of());
            assertTrue(asked.statusCode() / 100 == 2, "replica " + r + ": " + asked.statusCode() + " " + asked.body());
            String id = Http.json(asked).path("id").asText();
            String read = "http://localhost:" + stack.servicePort("diagnosis-service", other) + "/api/v1/diagnoses/" + id;
            JsonNode[] last = {null};
            awaitTrue("diagnosis " + id + " asked of replica " + r + ", read from replica " + other, () -> {
                HttpResponse<String> got = Http.get(read, token);
                last[0] = got.statusCode() == 200 ? Http.json(got) : null;
                return last[0] != null && "DONE".equals(last[0].path("status").asText());
            }, Duration.ofMinutes(2), () -> String.valueOf(last[0]));
        }
    }

    @Test
    @Order(5)
    void killingOneReplicaOfEachServiceUnderLoadLosesNothing() throws Exception {
        CompletableFuture<Void> load = CompletableFuture.runAsync(() -> {
            for (int second = 0; second < 20; second++) {
                sendLines("during-" + second, 150);
                sleep(1000);
            }
        });
        sleep(5000);
        for (String service : CONSUMERS) {
            long pid = stack.pid(service);
            ProcessHandle process = ProcessHandle.of(pid).orElseThrow(() -> new AssertionError(service + " pid " + pid + " not running"));
            assertTrue(process.info().commandLine().orElse("").contains("-Djobmon.component=" + service), service + " pid " + pid);
            process.destroyForcibly(); // SIGKILL: no shutdown hook, no consumer leaving its group
            System.out.printf("[replicas] killed %s (pid %d) with SIGKILL%n", service, pid);
        }
        // Jobs submitted while a replica of job-service is dead: the gateway passes over it.
        for (String user : List.of("bob", "carol")) {
            JOBS.put(submit(user, "replicas-" + RUN + "-" + JOBS.size()), user);
        }
        load.get(2, TimeUnit.MINUTES);
        sendLines("after", 1000);

        awaitTrue("the surviving replica of each service holding every partition", () -> CONSUMERS.stream().allMatch(g ->
                groups.holders(g).entrySet().stream().allMatch(e -> !e.getKey().equals("(nothing)")
                        && e.getValue().size() == perReplica(e.getKey())
                        && e.getValue().stream().mapToInt(Integer::intValue).sum() == groups.partitions(e.getKey()))),
                Duration.ofMinutes(3), () -> groups.describe(CONSUMERS));
        Map<TopicPartition, Long> ends = groups.endOffsets(CONSUMERS);
        awaitTrue("every group's lag at 0 for what was produced up to now", () -> CONSUMERS.stream().allMatch(g ->
                groups.committed(g).entrySet().stream().allMatch(e -> e.getValue().offset() >= ends.getOrDefault(e.getKey(), 0L))),
                Duration.ofMinutes(3), () -> groups.lagReport(CONSUMERS, ends));

        awaitCount(linesSent);
        JOBS.forEach((job, user) -> await(user, job, "SUCCEEDED", Duration.ofMinutes(4)));
        // Once more after the jobs ended: no line counted twice by a replay of the killed replicas' partitions.
        assertEquals(linesSent, count(), "lines of run " + RUN);
        JOBS.forEach(ReplicasIT::assertNoEventTwice);
    }

    // ---- helpers -----------------------------------------------------------------------------------------

    private static String submit(String user, String name) {
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("name", name);
        spec.put("project", "carol".equals(user) ? "project-cv" : "project-nlp");
        spec.put("cluster", "sim");
        spec.put("image", "registry.local/e2e/trainer:1");
        spec.put("replicas", 1);
        spec.put("resources", Map.of("gpuType", "A800", "gpusPerReplica", 1));
        // As a client does when an instance dies under its request (the gateway answers 503, or the connection
        // drops): the same request again with the same Idempotency-Key, which job-service answers with the same job.
        String key = UUID.randomUUID().toString();
        String[] id = {null};
        HttpResponse<?>[] last = {null};
        awaitTrue("submission of " + name, () -> {
            HttpResponse<String> r = Http.sendJson("POST", stack.gateway() + "/api/v1/jobs", client.token(user), spec,
                    Map.of("Idempotency-Key", key));
            last[0] = r;
            if (r.statusCode() == 201 || r.statusCode() == 200) {
                id[0] = Http.json(r).path("id").asText();
                return true;
            }
            assertTrue(r.statusCode() >= 502, "submission of " + name + ": " + r.statusCode() + " " + r.body());
            return false;
        }, Duration.ofMinutes(1), () -> String.valueOf(last[0]));
        return id[0];
    }

    private static void await(String user, String job, String status, Duration max) {
        JsonNode[] last = {null};
        awaitTrue("job " + job + " " + status, () -> status.equals((last[0] = client.get(user, "/api/v1/jobs/" + job)
                .require("job " + job)).path("status").asText()), max, () -> String.valueOf(last[0]));
    }

    /** Lines as Fluent Bit's Kafka output writes them (no key: spread over the partitions), for a pod of linesJob. */
    private static void sendLines(String batch, int n) {
        Instant now = Instant.now();
        for (int i = 0; i < n; i++) {
            Instant t = now.plusNanos(i * 1000L);
            String line = "replicas-e2e " + RUN + " " + batch + " line " + i;
            String value = "{\"@timestamp\":" + t.getEpochSecond() + "." + String.format("%06d", t.getNano() / 1000)
                    + ",\"stream\":\"stdout\",\"log\":\"" + line + "\",\"kubernetes\":{\"pod_name\":\"" + linesJob
                    + "-fluentbit-0\",\"namespace_name\":\"jobmon-jobs\",\"labels\":{\"jobmon.io/job-id\":\"" + linesJob
                    + "\"},\"host\":\"gpu-node-01\",\"container_name\":\"main\"}}";
            producer.send(new ProducerRecord<>(LINES_TOPIC, null, value));
        }
        producer.flush();
        synchronized (ReplicasIT.class) {
            linesSent += n;
        }
    }

    private static long count() {
        return client.get("alice", "/api/v1/jobs/" + linesJob + "/logs/count?q=" + RUN).require("count").path("lines").asLong();
    }

    private static void awaitCount(long expected) {
        long[] last = {-1};
        awaitTrue(expected + " lines of run " + RUN, () -> (last[0] = count()) >= expected, Duration.ofMinutes(3),
                () -> "counted " + last[0]);
        assertEquals(expected, last[0], "lines of run " + RUN + " counted");
    }

    /** Reads a follow until its tail was sent ({@code event: following}): the SSE lines seen. */
    private static List<String> follow(String url, String token) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + token).header("Accept", "text/event-stream").GET().build();
        HttpResponse<Stream<String>> response = HTTP.send(request, HttpResponse.BodyHandlers.ofLines());
        assertEquals(200, response.statusCode(), url);
        List<String> seen = new ArrayList<>();
        CompletableFuture<Void> read = CompletableFuture.runAsync(() -> {
            var it = response.body().iterator();
            while (it.hasNext()) {
                String line = it.next();
                seen.add(line);
                if (line.equals("event: following")) {
                    return;
                }
            }
        });
        try {
            read.get(60, TimeUnit.SECONDS);
        } finally {
            response.body().close();
        }
        return seen;
    }

    /** The replicas of event-ingest whose wellness says they watch the sim. */
    private static List<Integer> watchers() {
        List<Integer> out = new ArrayList<>();
        for (int r = 1; r <= 2; r++) {
            HttpResponse<String> well = Http.get("http://localhost:" + stack.managementPort("event-ingest-service", r)
                    + "/q/health/well", null);
            for (JsonNode check : Http.json(well).path("checks")) {
                if ("watching".equals(check.path("data").path("sim").asText())) {
                    out.add(r);
                }
            }
        }
        return out;
    }

    /** The scrape targets a replica of metrics-service reports a {@code jobmon_scrape_up} gauge for. */
    private static Set<String> scraped(int replica) {
        String body = Http.get("http://localhost:" + stack.managementPort("metrics-service", replica) + "/q/metrics", null).body();
        Set<String> targets = new HashSet<>();
        for (String line : body.split("\n")) {
            if (line.startsWith("jobmon_scrape_up{")) {
                int at = line.indexOf("target=\"");
                targets.add(line.substring(at + 8, line.indexOf('"', at + 8)));
            }
        }
        return targets;
    }

    private static int perReplica(String topic) {
        return CONSUMERS_PER_REPLICA.getOrDefault(topic, 1);
    }

    /** No event of the job listed twice (same time, object, reason and message). */
    private static void assertNoEventTwice(String job, String user) {
        JsonNode items = client.get(user, "/api/v1/jobs/" + job + "/events?limit=500").require("events").path("items");
        Set<String> seen = new HashSet<>();
        for (JsonNode e : items) {
            String key = e.path("firstTime").asText() + "|" + e.path("time").asText() + "|" + e.at("/object/kind").asText()
                    + "/" + e.at("/object/name").asText() + "|" + e.path("reason").asText() + "|" + e.path("message").asText();
            assertTrue(seen.add(key), "event listed twice for " + job + ": " + e);
        }
        assertTrue(seen.size() > 0, "no events for " + job);
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
