package io.jobmon.metrics.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.jobmon.contracts.events.CloudEvents;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.spec.RSAPublicKeySpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** The three systems of the benchmark as local processes on loopback ports, and the HTTP plumbing. */
final class Systems {

    /** HTTP/1.1 to all three: Prometheus and VictoriaMetrics do not speak HTTP/2 over cleartext, Quarkus would upgrade. */
    static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    /** A started process with its port and data directory. */
    record Proc(String name, Process process, int port, Path dir, Path log) {
        String base() {
            return "http://127.0.0.1:" + port;
        }

        void stop() throws InterruptedException {
            process.destroy();
            process.waitFor();
        }
    }

    private Systems() {
    }

    static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static Proc start(String name, List<String> command, int port, Path dir) throws IOException {
        Path log = Files.createTempFile("bench-" + name + "-", ".log");
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        return new Proc(name, p, port, dir, log);
    }

    /** Debian's prometheus 2.42 with the remote-write receiver, its own config and data, loopback only. */
    static Proc prometheus() throws IOException {
        Path dir = Files.createTempDirectory("bench-prometheus-");
        Path config = dir.resolve("prometheus.yml");
        Files.writeString(config, "global:\n  scrape_interval: 15s\nscrape_configs: []\n");
        int port = freePort();
        return start("prometheus", List.of("prometheus", "--config.file=" + config, "--storage.tsdb.path=" + dir.resolve("data"),
                "--web.listen-address=127.0.0.1:" + port, "--web.enable-remote-write-receiver",
                "--storage.tsdb.retention.time=60d"), port, dir.resolve("data"));
    }

    /** Debian's victoria-metrics, its own data, loopback only. */
    static Proc victoria() throws IOException {
        Path dir = Files.createTempDirectory("bench-victoria-");
        int port = freePort();
        return start("victoria-metrics", List.of("victoria-metrics", "-storageDataPath=" + dir, "-retentionPeriod=1y",
                "-httpListenAddr=127.0.0.1:" + port, "-search.latencyOffset=0s"), port, dir);
    }

    /** The packaged metrics-service on the benchmark's broker and database, tokens checked against a local key. */
    static Proc jobmon(String bootstrap, String dbUrl, String user, String password, String group, int mgmt)
            throws Exception {
        return jobmon("jobmon", bootstrap, dbUrl, user, password, group, mgmt, Map.of());
    }

    /** The same with more settings, e.g. {@code jobmon.metrics.storage=prometheus} (ADR 0036). */
    static Proc jobmon(String name, String bootstrap, String dbUrl, String user, String password, String group, int mgmt,
            Map<String, String> more) throws Exception {
        Path jar = Path.of(System.getProperty("bench.jar", "target/quarkus-app/quarkus-run.jar"));
        if (!Files.exists(jar)) {
            throw new IllegalStateException("build first: ./mvnw -pl metrics-service -am package -DskipTests");
        }
        int port = freePort();
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx2g"));
        Map<String, String> props = Map.ofEntries(Map.entry("kafka.bootstrap.servers", bootstrap),
                Map.entry("quarkus.datasource.jdbc.url", "jdbc:" + dbUrl), Map.entry("quarkus.datasource.reactive.url", dbUrl),
                Map.entry("quarkus.datasource.username", user), Map.entry("quarkus.datasource.password", password),
                Map.entry("quarkus.http.port", String.valueOf(port)), Map.entry("quarkus.management.port", String.valueOf(mgmt)),
                Map.entry("quarkus.oidc.public-key", publicKey()),
                // verified locally with the key: no identity provider to reach
                Map.entry("quarkus.oidc.auth-server-url", ""), Map.entry("quarkus.oidc.discovery-enabled", "false"), Map.entry("jobmon.metrics.scrape.enabled", "false"),
                Map.entry("jobmon.metrics.storage.raw-retention-days", "30"),
                Map.entry("mp.messaging.incoming.samples.group.id", group),
                Map.entry("mp.messaging.incoming.job-changes.group.id", group), Map.entry("quarkus.log.level", "WARN"));
        props.forEach((k, v) -> cmd.add("-D" + k + "=" + v));
        more.forEach((k, v) -> cmd.add("-D" + k + "=" + v));
        for (String opt : System.getProperty("bench.serviceOpts", "").trim().split("\\s+")) {
            if (!opt.isEmpty()) {
                cmd.add(opt);
            }
        }
        cmd.add("-jar");
        cmd.add(jar.toString());
        return start(name, cmd, port, null);
    }

    /**
     * The packaged gateway ({@code ../gateway/target/quarkus-app}, or {@code bench.gatewayJar}) in front of
     * metrics-service, tokens checked against the same local key, the per-user rate limit out of the way; null when
     * the gateway is not built.
     */
    static Proc gateway(String metricsBase, String metricsManagement) throws Exception {
        Path jar = Path.of(System.getProperty("bench.gatewayJar", "../gateway/target/quarkus-app/quarkus-run.jar"));
        if (!Files.exists(jar)) {
            return null;
        }
        int port = freePort();
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m"));
        Map<String, String> props = Map.ofEntries(Map.entry("quarkus.http.port", String.valueOf(port)),
                Map.entry("quarkus.management.port", String.valueOf(freePort())),
                Map.entry("jobmon.gateway.services.metrics", metricsBase),
                Map.entry("jobmon.gateway.management.metrics", metricsManagement),
                Map.entry("jobmon.gateway.rate-limit.refill", "1000000"),
                Map.entry("jobmon.gateway.rate-limit.burst", "1000000"),
                Map.entry("quarkus.oidc.public-key", publicKey()), Map.entry("quarkus.oidc.auth-server-url", ""),
                Map.entry("quarkus.oidc.discovery-enabled", "false"), Map.entry("quarkus.log.level", "WARN"));
        props.forEach((k, v) -> cmd.add("-D" + k + "=" + v));
        cmd.add("-jar");
        cmd.add(jar.toString());
        return start("gateway", cmd, port, null);
    }

    /** The public half of the OIDC test server's signing key, which {@code Tokens} signs with. */
    static String publicKey() throws Exception {
        try (InputStream in = Systems.class.getClassLoader().getResourceAsStream("publicKey.jwk")) {
            JsonNode jwk = CloudEvents.MAPPER.readTree(in);
            JsonNode key = jwk.has("keys") ? jwk.get("keys").get(0) : jwk;
            Base64.Decoder d = Base64.getUrlDecoder();
            RSAPublicKeySpec spec = new RSAPublicKeySpec(new BigInteger(1, d.decode(key.get("n").asText())),
                    new BigInteger(1, d.decode(key.get("e").asText())));
            return Base64.getEncoder().encodeToString(KeyFactory.getInstance("RSA").generatePublic(spec).getEncoded());
        }
    }

    static void awaitUp(String url, Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            try {
                if (HTTP.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.discarding())
                        .statusCode() < 500) {
                    return;
                }
            } catch (IOException e) {
                // not yet
            }
            Thread.sleep(300);
        }
        throw new IllegalStateException("not up: " + url);
    }

    static String get(String url, String token) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofMinutes(2));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException(url + " → " + r.statusCode() + " " + r.body());
        }
        return r.body();
    }

    /** A metric's value on a Prometheus text page (the sum of its lines). */
    static double scrapeValue(String page, String name) {
        double sum = 0;
        for (String l : page.split("\n")) {
            if (l.startsWith(name + " ") || l.startsWith(name + "{")) {
                sum += Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1));
            }
        }
        return sum;
    }

    /** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
    static double cpuSeconds(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0; // utime, stime in clock ticks (USER_HZ)
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** The parent of a process. */
    static long parent(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            return Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[1]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** CPU seconds of a process and its children (PostgreSQL: the postmaster and its backends). */
    static double treeCpuSeconds(long root) {
        double sum = cpuSeconds(root);
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            for (Path p : procs.toList()) {
                String name = p.getFileName().toString();
                if (name.chars().allMatch(Character::isDigit) && parent(Long.parseLong(name)) == root) {
                    sum += cpuSeconds(Long.parseLong(name));
                }
            }
        } catch (IOException e) {
            return sum;
        }
        return sum;
    }

    static long du(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
    }
}
