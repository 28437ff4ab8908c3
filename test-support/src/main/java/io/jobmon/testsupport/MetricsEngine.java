package io.jobmon.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A real Prometheus-compatible engine as a local process on a free loopback port, with its own data directory:
 * Debian's {@code victoria-metrics} or {@code prometheus} (2.42, remote-write receiver on, out-of-order samples
 * accepted). A missing binary fails naming the package ({@code ./jobmon test} installs it), never skips.
 */
public final class MetricsEngine implements AutoCloseable {

    public enum Kind {
        VICTORIA_METRICS("victoria-metrics"), PROMETHEUS("prometheus");

        public final String binary;

        Kind(String binary) {
            this.binary = binary;
        }
    }


    private final Kind kind;
    private final Process process;
    private final int port;
    private final Path dir;
    private final Path log;

    private MetricsEngine(Kind kind, Process process, int port, Path dir, Path log) {
        this.kind = kind;
        this.process = process;
        this.port = port;
        this.dir = dir;
        this.log = log;
    }

    /** Starts the engine and waits until it answers queries. */
    public static MetricsEngine start(Kind kind) {
        Path bin = Path.of("/usr/bin", kind.binary);
        if (!Files.isExecutable(bin)) {
            throw new IllegalStateException(bin + " is missing: install the Debian package '" + kind.binary
                    + "' (./jobmon test installs it)");
        }
        try {
            Path dir = Files.createTempDirectory("engine-" + kind.binary + "-");
            int port = ServiceProcess.freePort();
            List<String> cmd;
            if (kind == Kind.VICTORIA_METRICS) {
                // just-written samples queryable at once, no response cache (tests write past days after reading)
                cmd = List.of(bin.toString(), "-httpListenAddr=127.0.0.1:" + port, "-storageDataPath=" + dir,
                        "-retentionPeriod=100y", "-search.latencyOffset=0s", "-search.disableCache",
                        "-loggerLevel=WARN");
            } else {
                Path config = dir.resolve("prometheus.yml");
                // out-of-order samples (tests and late scrapes write into the past) within a wide window
                Files.writeString(config, "global:\n  scrape_interval: 15s\nstorage:\n  tsdb:\n"
                        + "    out_of_order_time_window: 100000d\nscrape_configs: []\n");
                cmd = List.of(bin.toString(), "--config.file=" + config, "--storage.tsdb.path=" + dir.resolve("data"),
                        "--web.listen-address=127.0.0.1:" + port, "--web.enable-remote-write-receiver",
                        "--storage.tsdb.retention.time=100y", "--log.level=warn");
            }
            Path log = Files.createTempFile("engine-" + kind.binary + "-", ".log");
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            MetricsEngine e = new MetricsEngine(kind, p, port, dir, log);
            e.awaitReady();
            return e;
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + kind.binary, e);
        }
    }

    private void awaitReady() throws IOException {
        String path = kind == Kind.VICTORIA_METRICS ? "/health" : "/-/ready";
        Readiness.await(kind.binary, process, url() + path, log, Duration.ofSeconds(60));
    }

    public Kind kind() {
        return kind;
    }

    /** The query API's base URL. */
    public String url() {
        return "http://127.0.0.1:" + port;
    }

    public String remoteWriteUrl() {
        return url() + "/api/v1/write";
    }

    public Path dataDir() {
        return dir;
    }

    @Override
    public void close() {
        process.destroy();
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (java.util.stream.Stream<Path> files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            Files.deleteIfExists(log);
        } catch (IOException e) {
            // a temporary directory left behind
        }
    }
}
