package io.jobmon.diagnosis.bench;

import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.JobSnapshot;
import io.jobmon.contracts.events.JobStatus;
import io.jobmon.testsupport.BenchKafka;
import io.jobmon.testsupport.EmbeddedKafka;
import io.jobmon.testsupport.EmbeddedPostgresDb;
import io.jobmon.testsupport.ServiceProcess;
import io.jobmon.testsupport.Tokens;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * A diagnosis task of a job with a million log lines and 3 days of metrics, from {@code POST /api/v1/jobs/{id}/diagnoses}
 * to {@code DONE} (a program, not a test; command in the README). Real: diagnosis-service and log-service as their
 * packaged processes on an embedded Kafka broker and PostgreSQL, log-service seeded through its own intake (Fluent Bit
 * records on its topic), tokens checked by the OIDC WireMock. Recorded: job-service, event-ingest and metrics-service
 * answers at realistic sizes (WireMock, {@link SourceAnswers}); the gateway is not in the path (it forwards).
 * Arguments: {@code lines} (1,000,000), {@code runs} (5).
 */
public final class TaskBenchmark {

    static final ObjectMapper JSON = new ObjectMapper();

    public static void main(String[] args) throws Exception {
        long lines = args.length > 0 ? Long.parseLong(args[0]) : 1_000_000;
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        int pods = 8;
        String run = Long.toString(System.currentTimeMillis(), 36);
        String job = "bench-" + run;
        Instant finished = Instant.now().minus(Duration.ofMinutes(5)).truncatedTo(ChronoUnit.SECONDS);
        Instant started = finished.minus(Duration.ofDays(3));

        OidcWiremockTestResource oidc = new OidcWiremockTestResource();
        String issuer = oidc.start().get("keycloak.url") + "/realms/quarkus";
        WireMockServer sources = new WireMockServer(options().dynamicPort().asynchronousResponseEnabled(true));
        sources.start();
        SourceAnswers.serve(sources, job, pods, started, finished);
        String bootstrap = EmbeddedKafka.bootstrapServers();
        EmbeddedPostgresDb.Connection pg = EmbeddedPostgresDb.connection();
        String logsDb = database(pg, "bench_logs_" + run);
        String diagDb = database(pg, "bench_diag_" + run);
        String linesTopic = "bench.logs.lines." + run;
        String changesTopic = "bench.job.changes." + run;

        Map<String, String> common = new HashMap<>();
        common.put("kafka.bootstrap.servers", bootstrap);
        common.put("quarkus.datasource.username", pg.user());
        common.put("quarkus.datasource.password", pg.password());
        common.put("quarkus.oidc.auth-server-url", issuer);
        common.put("mp.messaging.incoming.job-changes.topic", changesTopic);
        Map<String, String> logProps = new HashMap<>(common);
        logProps.put("quarkus.datasource.jdbc.url", "jdbc:" + logsDb);
        logProps.put("quarkus.datasource.reactive.url", logsDb);
        logProps.put("mp.messaging.incoming.logs-lines.topic", linesTopic);
        logProps.put("mp.messaging.incoming.logs-lines.group.id", "bench-logs-" + run);
        logProps.put("mp.messaging.incoming.job-changes.group.id", "bench-logs-changes-" + run);
        ServiceProcess logService = new ServiceProcess("log-service", Path.of("../log-service/target/quarkus-app/quarkus-run.jar"),
                "-Xmx1g", logProps).start();
        try (KafkaProducer<String, String> producer = BenchKafka.producer(bootstrap)) {
            JobSnapshot snapshot = new JobSnapshot(job, "t1", "alice", "project-nlp", "PRIVATE", List.of(), "llama-sft",
                    "local", "local", "default", JobStatus.FAILED, "Error", "A800", pods,
                    java.util.stream.IntStream.range(0, pods).mapToObj(SourceAnswers::pod).toList(),
                    List.of(SourceAnswers.node(0)), true, false, 0, 3, started.minusSeconds(120), started, finished,
                    1, false, "team-nlp", null, List.of());
            producer.send(new ProducerRecord<>(changesTopic, job, CloudEvents.encode("/bench", JobSnapshot.TYPE, job, snapshot)));
            long t0 = System.nanoTime();
            long text = LogLines.produce(producer, linesTopic, job, pods, lines, started, finished);
            System.out.printf("produced %,d lines (%,.0f MB of text) over 3 days in %.0f s%n", lines, text / 1e6,
                    (System.nanoTime() - t0) / 1e9);
        }
        logService.awaitReady(Duration.ofMinutes(3));
        long t0 = System.nanoTime();
        try (Connection c = DriverManager.getConnection("jdbc:" + logsDb, pg.user(), pg.password())) {
            while (BenchKafka.scalar(c, "SELECT coalesce(sum(next_offset), 0) FROM logs.consumer_offset WHERE topic = '" + linesTopic
                    + "'") < lines) {
                Thread.sleep(1000);
            }
            System.out.printf("log-service stored them in %.0f s (%,d chunks)%n", (System.nanoTime() - t0) / 1e9,
                    BenchKafka.scalar(c, "SELECT count(*) FROM logs.chunk"));
        }

        Map<String, String> diagProps = new HashMap<>(common);
        diagProps.put("quarkus.datasource.jdbc.url", "jdbc:" + diagDb);
        diagProps.put("quarkus.datasource.reactive.url", diagDb);
        diagProps.put("mp.messaging.incoming.job-changes.group.id", "bench-diag-" + run);
        diagProps.put("mp.messaging.incoming.job-status.topic", "bench.job.status." + run);
        diagProps.put("quarkus.rest-client.job-service.url", sources.baseUrl());
        diagProps.put("quarkus.rest-client.event-ingest-service.url", sources.baseUrl());
        diagProps.put("quarkus.rest-client.metrics-service.url", sources.baseUrl());
        diagProps.put("quarkus.rest-client.log-service.url", logService.url());
        diagProps.put("jobmon.diagnosis.automatic.service-account", "true");
        diagProps.put("quarkus.oidc-client.client-enabled", "true");
        diagProps.put("quarkus.oidc-client.discovery-enabled", "false");
        diagProps.put("quarkus.oidc-client.auth-server-url", issuer);
        diagProps.put("quarkus.oidc-client.token-path", sources.baseUrl() + "/token");
        diagProps.put("quarkus.oidc-client.credentials.secret", "bench");
        ServiceProcess diagnosis = new ServiceProcess("diagnosis-service",
                Path.of("target/quarkus-app/quarkus-run.jar"), "-Xmx256m", diagProps).start();
        diagnosis.awaitReady(Duration.ofMinutes(3));
        try {
            measure(diagnosis.url(), job, runs);
        } finally {
            diagnosis.stop();
            logService.stop();
            sources.stop();
            oidc.stop();
            System.out.println("logs: " + logService.log() + " " + diagnosis.log());
        }
        System.exit(0);
    }

    private static void measure(String base, String job, int runs) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        String token = Tokens.alice();
        while (http.send(request(base + "/api/v1/jobs/" + job + "/diagnoses", token).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode() != 200) {
            Thread.sleep(200); // the job's access row has not arrived yet
        }
        double[] seconds = new double[runs];
        JsonNode last = null;
        for (int i = -1; i < runs; i++) { // one warm-up task
            long t = System.nanoTime();
            HttpResponse<String> asked = http.send(request(base + "/api/v1/jobs/" + job + "/diagnoses", token)
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            String id = JSON.readTree(asked.body()).path("id").asText();
            JsonNode d;
            do {
                Thread.sleep(20);
                d = JSON.readTree(http.send(request(base + "/api/v1/diagnoses/" + id, token).build(),
                        HttpResponse.BodyHandlers.ofString()).body());
            } while (!"DONE".equals(d.path("status").asText()) && !"FAILED".equals(d.path("status").asText()));
            if (i >= 0) {
                seconds[i] = (System.nanoTime() - t) / 1e9;
                System.out.printf("task %d: %s in %.2f s: %s %s%n", i + 1, d.path("status").asText(), seconds[i],
                        d.path("result").path("category").asText(), d.path("result").path("summary").asText());
            }
            last = d;
        }
        Arrays.sort(seconds);
        System.out.printf("time to DONE over %d tasks: p50 %.2f s, max %.2f s%n", runs, seconds[runs / 2], seconds[runs - 1]);
        System.out.println("missingSources: " + last.path("missingSources") + ", sourceErrors: " + last.path("sourceErrors"));
        System.out.println("evidenceRead: " + last.path("evidenceRead").toPrettyString());
        System.out.println("evidence quoted: " + last.path("result").path("evidence").toPrettyString());
    }

    private static HttpRequest.Builder request(String url, String token) {
        return HttpRequest.newBuilder(URI.create(url)).header("Authorization", "Bearer " + token)
                .timeout(Duration.ofSeconds(60));
    }

    private static String database(EmbeddedPostgresDb.Connection pg, String name) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:" + pg.url(), pg.user(), pg.password());
                Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        }
        return pg.url().substring(0, pg.url().lastIndexOf('/') + 1) + name;
    }
}
