package io.jobmon.testsupport;

import java.io.File;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A jobmon service as a separate process, for benchmarks and fault tests: its packaged {@code quarkus-run.jar},
 * configured by system properties, on free HTTP and management ports — what a deployment runs, and what
 * {@code kill -9} kills. Extra JVM options come from {@code -Dbench.serviceOpts="..."} (a flight recording, say).
 */
public final class ServiceProcess {

    /**
     * The collector options of the services' pods, in the order their command line has them (ADR 0063): first those
     * the container image's launcher adds ({@code ubi9/openjdk-17-runtime}'s {@code run-java.sh}), then the Helm
     * chart's {@code pod.javaOptions}, which name the collector and give back the JVM's own heap sizing goals (the
     * last value of an option wins). A JVM started plainly on 2 cores or more picks G1 instead; a benchmark runs
     * what the pods run. {@code -Dbench.serviceOpts} naming a collector replaces these.
     */
    public static final List<String> POD_COLLECTOR = List.of(
            "-XX:+UseParallelGC", "-XX:MinHeapFreeRatio=10", "-XX:MaxHeapFreeRatio=20", "-XX:GCTimeRatio=4",
            "-XX:AdaptiveSizePolicyWeight=90", // the image's launcher
            "-XX:+UseParallelGC", "-XX:GCTimeRatio=99", "-XX:MinHeapFreeRatio=40", "-XX:MaxHeapFreeRatio=70"); // the chart

    public final String name;
    public final int port = freePort();
    public final int managementPort = freePort();
    private final Path log;
    private final List<String> command = new ArrayList<>();
    private Process process;

    /** @param heap the service's {@code -Xmx…}; {@link #heap()} for the benchmarks' default */
    public ServiceProcess(String name, Path jar, String heap, Map<String, String> props) throws IOException {
        if (!Files.exists(jar)) {
            throw new IllegalStateException("build first: ./mvnw -B -pl <service> -am package -DskipTests (" + jar
                    + " missing)");
        }
        this.name = name;
        this.log = Files.createTempFile("bench-" + name + "-", ".log");
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add(heap);
        List<String> opts = new ArrayList<>();
        for (String opt : System.getProperty("bench.serviceOpts", "").trim().split("\\s+")) {
            if (!opt.isEmpty()) {
                opts.add(opt);
            }
        }
        if (opts.stream().noneMatch(o -> o.matches("-XX:\\+Use\\w+GC"))) {
            command.addAll(POD_COLLECTOR);
        }
        command.addAll(opts);
        Map<String, String> all = new LinkedHashMap<>();
        all.put("quarkus.http.port", Integer.toString(port));
        all.put("quarkus.management.port", Integer.toString(managementPort));
        all.put("quarkus.log.level", "WARN");
        all.putAll(props);
        all.forEach((k, v) -> command.add("-D" + k + "=" + v));
        command.add("-jar");
        command.add(jar.toString());
    }

    /** The heap of a service under benchmark: {@code -Dbench.serviceHeap}, else 1 GB. */
    public static String heap() {
        return System.getProperty("bench.serviceHeap", "-Xmx1g");
    }

    /** The settings of a service on the benchmark's broker and database, without a token check. */
    public static Map<String, String> on(String bootstrap, String dbUrl, String user, String password) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("kafka.bootstrap.servers", bootstrap);
        p.put("quarkus.datasource.jdbc.url", "jdbc:" + dbUrl);
        p.put("quarkus.datasource.reactive.url", dbUrl);
        p.put("quarkus.datasource.username", user);
        p.put("quarkus.datasource.password", password);
        p.put("quarkus.oidc.tenant-enabled", "false");
        return p;
    }

    public ServiceProcess start() throws IOException {
        process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        return this;
    }

    /** Waits until readiness (management port) answers 200. */
    public void awaitReady(Duration max) throws Exception {
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

    /** {@code kill -9}: no shutdown hook, no flush, no offset commit. */
    public void kill() throws InterruptedException {
        process.destroyForcibly().waitFor();
    }

    public void stop() throws InterruptedException {
        if (process != null) {
            process.destroy();
            process.waitFor();
        }
    }

    /** CPU time the service process has used so far (all its threads, GC and JIT included), in seconds. */
    public double cpuSeconds() {
        return process.info().totalCpuDuration().map(d -> d.toNanos() / 1e9).orElse(Double.NaN);
    }

    /** CPU time this service's JIT compiler threads have used so far, in seconds ({@link #compilerCpuSeconds(long)}). */
    public double compilerCpuSeconds() {
        return compilerCpuSeconds(process.pid());
    }

    /**
     * CPU time a JVM's JIT compiler threads ({@code C1/C2 CompilerThread}) have used so far, in seconds, from Linux
     * {@code /proc}; NaN where it cannot tell. A JVM still compiling its hot paths spends part of the cores on it;
     * one that has run for long does not (a benchmark's warm-up is long enough when this stays small).
     */
    public static double compilerCpuSeconds(long pid) {
        long ticks = 0;
        try (Stream<Path> threads = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path t : (Iterable<Path>) threads::iterator) {
                try {
                    String stat = Files.readString(t.resolve("stat"));
                    if (stat.substring(stat.indexOf('(') + 1).matches("C[12] Compiler(?s).*")) {
                        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                        ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime
                    }
                } catch (IOException | RuntimeException e) {
                    // the thread ended since the listing (compiler threads come and go)
                }
            }
        } catch (IOException e) {
            return Double.NaN;
        }
        return ticks / 100.0; // clock ticks per second (getconf CLK_TCK) on Linux' usual builds
    }

    /** The service's own figures from /q/metrics whose names start with {@code prefix}. */
    public String metrics(String prefix) {
        try {
            String body = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + managementPort + "/q/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            return body.lines().filter(l -> l.startsWith(prefix)).collect(Collectors.joining("\n"));
        } catch (IOException | InterruptedException e) {
            return "(metrics unavailable: " + e + ")";
        }
    }

    public String url() {
        return "http://127.0.0.1:" + port;
    }

    public File log() {
        return log.toFile();
    }

    public static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
