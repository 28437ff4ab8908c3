package io.jobmon.diagnosis.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** A jobmon service as a separate process: its packaged {@code quarkus-run.jar}, configured by system properties. */
final class ServiceProcess {

    final String name;
    final int port = freePort();
    final int managementPort = freePort();
    final Path log;
    private final List<String> command = new ArrayList<>();
    private Process process;

    ServiceProcess(String name, Path jar, String heap, Map<String, String> props) throws IOException {
        if (!Files.exists(jar)) {
            throw new IllegalStateException("build first: ./mvnw -B -pl log-service,diagnosis-service -am package "
                    + "-DskipTests (" + jar + " missing)");
        }
        this.name = name;
        this.log = Files.createTempFile("bench-" + name + "-", ".log");
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add(heap);
        command.add("-Dquarkus.http.port=" + port);
        command.add("-Dquarkus.management.port=" + managementPort);
        command.add("-Dquarkus.log.level=WARN");
        props.forEach((k, v) -> command.add("-D" + k + "=" + v));
        command.add("-jar");
        command.add(jar.toString());
    }

    ServiceProcess start() throws IOException {
        process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        return this;
    }

    /** Waits until readiness (management port) answers 200. */
    void awaitReady(Duration max) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + max.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited; see " + log);
            }
            try {
                HttpResponse<Void> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort
                        + "/q/health/ready")).timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.discarding());
                if (r.statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(500);
        }
        throw new IllegalStateException(name + " not ready within " + max + "; see " + log);
    }

    String url() {
        return "http://127.0.0.1:" + port;
    }

    void stop() throws InterruptedException {
        if (process != null) {
            process.destroy();
            process.waitFor();
        }
    }

    static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
