package io.jobmon.logs.bench;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * log-service as a separate process (the packaged {@code target/quarkus-app/quarkus-run.jar}) on the benchmark's
 * broker and database, with its own topic and consumer group: what a deployment runs, and what {@code kill -9} kills.
 */
final class ServiceProcess {

    private final List<String> command = new ArrayList<>();
    private final Path log;
    final int port = freePort();
    private Process process;

    ServiceProcess(String name, String bootstrap, String dbUrl, String user, String password, String topic, String group,
            Map<String, String> extra) throws IOException {
        Path jar = Path.of("target/quarkus-app/quarkus-run.jar");
        if (!Files.exists(jar)) {
            throw new IllegalStateException("build first: ./mvnw -pl log-service -am package -DskipTests");
        }
        log = Files.createTempFile("logs-" + name + "-", ".log");
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add(System.getProperty("bench.serviceHeap", "-Xmx1g"));
        // Extra JVM options for the service, e.g. -Dbench.serviceOpts="-XX:StartFlightRecording=filename=/tmp/l.jfr"
        for (String opt : System.getProperty("bench.serviceOpts", "").trim().split("\\s+")) {
            if (!opt.isEmpty()) {
                command.add(opt);
            }
        }
        Map<String, String> props = new LinkedHashMap<>();
        props.put("kafka.bootstrap.servers", bootstrap);
        props.put("quarkus.datasource.jdbc.url", "jdbc:" + dbUrl);
        props.put("quarkus.datasource.reactive.url", dbUrl);
        props.put("quarkus.datasource.username", user);
        props.put("quarkus.datasource.password", password);
        props.put("quarkus.http.port", Integer.toString(port));
        props.put("quarkus.management.port", Integer.toString(freePort()));
        props.put("mp.messaging.incoming.logs-lines.topic", topic);
        props.put("mp.messaging.incoming.logs-lines.group.id", group);
        props.put("mp.messaging.incoming.logs-lines.dead-letter-queue.topic", topic + ".dlq");
        props.put("mp.messaging.incoming.job-changes.topic", topic + ".job-changes");
        props.put("mp.messaging.incoming.job-changes.group.id", group + "-changes");
        props.put("quarkus.log.level", "WARN");
        props.put("quarkus.oidc.tenant-enabled", "false");
        props.putAll(extra);
        props.forEach((k, v) -> command.add("-D" + k + "=" + v));
        command.add("-jar");
        command.add(jar.toString());
    }

    void start() throws IOException {
        process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    /** {@code kill -9}: no shutdown hook, no flush, no offset commit. */
    void kill() throws InterruptedException {
        process.destroyForcibly().waitFor();
    }

    void stop() throws InterruptedException {
        process.destroy();
        process.waitFor();
    }

    /** CPU time the service process has used so far (all its threads, GC included), in seconds. */
    double cpuSeconds() {
        return process.info().totalCpuDuration().map(d -> d.toNanos() / 1e9).orElse(Double.NaN);
    }

    File log() {
        return log.toFile();
    }

    static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
