package io.jobmon.events.bench;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * event-ingest-service as a separate process (the packaged {@code target/quarkus-app/quarkus-run.jar}) on the
 * benchmark's broker and database, with its own topics and consumer group: what a deployment runs, and what
 * {@code kill -9} can kill.
 */
final class ServiceProcess {

    private final List<String> command = new ArrayList<>();
    private final Path log;
    private final int port = freePort();
    private final int managementPort = freePort();
    private Process process;

    ServiceProcess(String name, String bootstrap, String dbUrl, String user, String password, String rawTopic,
            String statusTopic, String group) throws IOException {
        Path jar = Path.of("target/quarkus-app/quarkus-run.jar");
        if (!Files.exists(jar)) {
            throw new IllegalStateException("build first: mvn -pl event-ingest-service package -DskipTests");
        }
        log = Files.createTempFile("ingest-" + name + "-", ".log");
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx1g");
        // Extra JVM options for the service, e.g. -Dbench.serviceOpts="-XX:StartFlightRecording=filename=/tmp/i.jfr"
        for (String opt : System.getProperty("bench.serviceOpts", "").trim().split("\\s+")) {
            if (!opt.isEmpty()) {
                command.add(opt);
            }
        }
        Map<String, String> props = Map.ofEntries(
                Map.entry("kafka.bootstrap.servers", bootstrap),
                Map.entry("quarkus.datasource.jdbc.url", "jdbc:" + dbUrl),
                Map.entry("quarkus.datasource.reactive.url", dbUrl),
                Map.entry("quarkus.datasource.username", user),
                Map.entry("quarkus.datasource.password", password),
                Map.entry("quarkus.http.port", Integer.toString(port)),
                Map.entry("quarkus.management.port", Integer.toString(managementPort)),
                Map.entry("quarkus.oidc.tenant-enabled", "false"),
                Map.entry("jobmon.watch.enabled", "false"),
                Map.entry("mp.messaging.incoming.k8s-raw.topic", rawTopic),
                Map.entry("mp.messaging.incoming.k8s-raw.group.id", group),
                Map.entry("mp.messaging.incoming.k8s-raw.dead-letter-queue.topic", rawTopic + ".dlq"),
                Map.entry("jobmon.events.status-topic", statusTopic),
                Map.entry("mp.messaging.incoming.job-changes.group.id", group + "-changes"),
                Map.entry("quarkus.log.level", "WARN"));
        props.forEach((k, v) -> command.add("-D" + k + "=" + v));
        command.add("-jar");
        command.add(jar.toString());
    }

    void start() throws IOException {
        process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    /** {@code kill -9}: no shutdown hook, no offset commit, no outbox flush. */
    void kill() throws InterruptedException {
        process.destroyForcibly().waitFor();
    }

    void stop() throws InterruptedException {
        process.destroy();
        process.waitFor();
    }

    /** The service's own figures (batch sizes, stage times, record counts) from /q/metrics. */
    String ingestMetrics() {
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        try {
            String body = http.send(java.net.http.HttpRequest.newBuilder(
                    java.net.URI.create("http://127.0.0.1:" + managementPort + "/q/metrics")).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString()).body();
            return body.lines().filter(l -> l.startsWith("jobmon_ingest_")).collect(java.util.stream.Collectors.joining("\n"));
        } catch (IOException | InterruptedException e) {
            return "(metrics unavailable: " + e + ")";
        }
    }

    private static int freePort() {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** CPU time of the service process so far (all its threads, GC and JIT included). */
    double cpuSeconds() {
        return process.info().totalCpuDuration().map(d -> d.toNanos() / 1e9).orElse(Double.NaN);
    }

    File log() {
        return log.toFile();
    }
}
