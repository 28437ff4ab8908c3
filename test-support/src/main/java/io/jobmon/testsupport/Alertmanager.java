package io.jobmon.testsupport;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A real Alertmanager for tests: Debian's {@code prometheus-alertmanager} (0.25, {@code apt-get install
 * prometheus-alertmanager}; its service is not used) started on a free port of 127.0.0.1 with a temporary storage
 * directory, clustering off and a configuration of one receiver. Tests post alerts to its v2 API as Prometheus does
 * ({@link #post}); {@link #routeTo} points its receiver at a webhook and reloads it. One per JVM (a shutdown hook
 * stops it).
 */
public final class Alertmanager {

    /** The binary; {@code JOBMON_TEST_ALERTMANAGER} names another. */
    public static final String BINARY = System.getenv().getOrDefault("JOBMON_TEST_ALERTMANAGER",
            "/usr/bin/prometheus-alertmanager");
    private static final String ROUTE = "route:\n  receiver: jobmon\n  group_by: [alertname, job_id]\n"
            + "  group_wait: 1s\n  group_interval: 1s\n  repeat_interval: 1h\n";
    private static Alertmanager shared;

    private final Process process;
    private final Path config;
    private final String url;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private Alertmanager(Process process, Path config, String url) {
        this.process = process;
        this.config = config;
        this.url = url;
    }

    /** The JVM's Alertmanager, started on first use. */
    public static synchronized Alertmanager shared() {
        if (shared == null) {
            shared = start();
            Runtime.getRuntime().addShutdownHook(new Thread(shared::stop));
        }
        return shared;
    }

    /** Its base URL, e.g. {@code http://127.0.0.1:40123}. */
    public String url() {
        return url;
    }

    /** Posts alerts (a JSON array of postable alerts: labels, annotations, startsAt, endsAt) as Prometheus does. */
    public void post(String alertsJson) {
        HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(url + "/api/v2/alerts"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(alertsJson)));
        if (r.statusCode() != 200) {
            throw new IllegalStateException("Alertmanager refused the alerts: " + r.statusCode() + " " + r.body());
        }
    }

    /** POST of a JSON body to a path of its API (a silence: {@code /api/v2/silences}), the answer's body. */
    public String postJson(String path, String json) {
        HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(url + path))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)));
        if (r.statusCode() != 200) {
            throw new IllegalStateException("Alertmanager refused " + path + ": " + r.statusCode() + " " + r.body());
        }
        return r.body();
    }

    /** GET of a path of its API, the body. */
    public String get(String path) {
        return send(HttpRequest.newBuilder(URI.create(url + path)).GET()).body();
    }

    /**
     * Sends every notification to {@code webhookUrl} with {@code bearerToken} (webhook JSON version 4, resolved
     * alerts too) and reloads the configuration.
     */
    public void routeTo(String webhookUrl, String bearerToken) {
        write(ROUTE + "receivers:\n  - name: jobmon\n    webhook_configs:\n      - url: '" + webhookUrl + "'\n"
                + "        send_resolved: true\n        http_config:\n          authorization:\n"
                + "            credentials: '" + bearerToken + "'\n");
        HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(url + "/-/reload"))
                .POST(HttpRequest.BodyPublishers.noBody()));
        if (r.statusCode() != 200) {
            throw new IllegalStateException("Alertmanager did not reload: " + r.body());
        }
    }

    private static Alertmanager start() {
        try {
            Path dir = Files.createTempDirectory("jobmon-alertmanager");
            Path config = dir.resolve("alertmanager.yml");
            Files.writeString(config, ROUTE + "receivers:\n  - name: jobmon\n");
            int port = ServiceProcess.freePort();
            Process p = new ProcessBuilder(List.of(BINARY, "--config.file=" + config,
                    "--storage.path=" + dir.resolve("data"), "--web.listen-address=127.0.0.1:" + port,
                    "--cluster.listen-address=", "--log.level=warn"))
                    .redirectErrorStream(true).redirectOutput(dir.resolve("alertmanager.log").toFile()).start();
            Alertmanager am = new Alertmanager(p, config, "http://127.0.0.1:" + port);
            am.awaitReady(dir);
            return am;
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + BINARY + " (apt-get install prometheus-alertmanager)", e);
        }
    }

    private void awaitReady(Path dir) throws IOException {
        Readiness.await("Alertmanager", process, url + "/-/ready", dir.resolve("alertmanager.log"), Duration.ofSeconds(30));
    }

    /** Stops the process. */
    public void stop() {
        process.destroy();
    }

    private void write(String text) {
        try {
            Files.writeString(config, text);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private HttpResponse<String> send(HttpRequest.Builder req) {
        try {
            return http.send(req.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException("Alertmanager at " + url + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
