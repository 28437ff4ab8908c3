package io.jobmon.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.jobmon.sim.replay.BundlePlayer;
import io.jobmon.sim.scenario.Scenario;
import io.jobmon.sim.scenario.Scenarios;
import io.jobmon.sim.telemetry.ExporterServers;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * The sim's own small HTTP API, for the local stack's scripts: {@code GET /healthz} (ready), {@code GET /scenarios},
 * {@code POST /replay?job=ID&namespace=NS} with an evidence bundle as body (plays it, answers what it made, 400 with
 * a problem body for a bundle that is not JSON or a missing {@code job}), {@code GET /replay/pending[?job=ID]} (metric
 * samples of replays, or of one job's, not scraped yet); {@code GET /sd/dcgm-exporter} and {@code GET /sd/node-exporter}:
 * every node's exporter endpoint (replay nodes' too, which come and go) as Prometheus' HTTP service discovery reads
 * target groups.
 */
public final class AdminServer implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(AdminServer.class);

    private final HttpServer server;
    private final BundlePlayer player;
    private final Supplier<Map<String, ExporterServers.Ports>> exporters;
    private final String host;

    public AdminServer(String host, int port, BundlePlayer player, Supplier<Map<String, ExporterServers.Ports>> exporters) {
        this.player = player;
        this.exporters = exporters;
        this.host = host;
        try {
            server = HttpServer.create(new InetSocketAddress(host, port), 8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serve the sim's admin API on " + host + ":" + port, e);
        }
        server.setExecutor(Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "sim-admin");
            t.setDaemon(true);
            return t;
        }));
        server.createContext("/", this::handle);
        server.start();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            route(ex);
        }
    }

    private void route(HttpExchange ex) throws IOException {
        try {
            String path = ex.getRequestURI().getPath();
            String method = ex.getRequestMethod();
            if ("GET".equals(method) && "/healthz".equals(path)) {
                send(ex, 200, JSON.createObjectNode().put("status", "ok"));
            } else if ("GET".equals(method) && "/scenarios".equals(path)) {
                ObjectNode out = JSON.createObjectNode();
                for (Scenario s : Scenarios.all()) {
                    out.put(s.name(), s.plays());
                }
                send(ex, 200, out);
            } else if ("GET".equals(method) && "/replay/pending".equals(path)) {
                String job = query(ex.getRequestURI().getRawQuery()).get("job");
                send(ex, 200, JSON.createObjectNode().put("pendingSamples",
                        job == null ? player.pendingSamples() : player.pendingSamples(job)));
            } else if ("GET".equals(method) && ("/sd/dcgm-exporter".equals(path) || "/sd/node-exporter".equals(path))) {
                boolean dcgm = path.endsWith("dcgm-exporter");
                ArrayNode groups = JSON.createArrayNode();
                exporters.get().forEach((node, ports) -> {
                    ObjectNode g = groups.addObject();
                    g.putArray("targets").add(host + ":" + (dcgm ? ports.dcgm() : ports.node()));
                    g.putObject("labels").put("cluster", "sim").put("node", node);
                });
                send(ex, 200, groups);
            } else if ("POST".equals(method) && "/replay".equals(path)) {
                replay(ex);
            } else {
                send(ex, 404, problem(404, "Not Found", "no " + method + " " + path + " here"));
            }
        } catch (KubernetesClientException e) {
            // e.g. 409: a pod of the bundle's name exists and cannot be renamed; the API server's answer, as a problem
            int status = e.getCode() >= 400 && e.getCode() < 500 ? e.getCode() : 500;
            LOG.warn("admin {} {} failed: {}", ex.getRequestMethod(), ex.getRequestURI(), e.getMessage());
            send(ex, status, problem(status, status == 409 ? "Conflict" : "Kubernetes API error", e.getMessage()));
        } catch (RuntimeException | Error e) {
            LOG.warn("admin {} {} failed", ex.getRequestMethod(), ex.getRequestURI(), e);
            send(ex, 500, problem(500, "Internal error", e.toString()));
        }
    }

    private void replay(HttpExchange ex) throws IOException {
        Map<String, String> q = query(ex.getRequestURI().getRawQuery());
        String job = q.get("job");
        if (job == null || job.isBlank()) {
            send(ex, 400, problem(400, "Bad Request", "the query parameter job (the job id to play the bundle as) is required"));
            return;
        }
        JsonNode bundle;
        try {
            bundle = JSON.readTree(ex.getRequestBody());
        } catch (IOException e) {
            send(ex, 400, problem(400, "Bad Request", "the body is not a JSON evidence bundle: " + e.getMessage()));
            return;
        }
        if (bundle == null || !bundle.isObject()) {
            send(ex, 400, problem(400, "Bad Request", "the body is not a JSON evidence bundle"));
            return;
        }
        String ns = q.getOrDefault("namespace", "jobmon-jobs");
        BundlePlayer.Result r = q.containsKey("shift-seconds")
                ? player.play(bundle, job, ns, Duration.ofSeconds(Long.parseLong(q.get("shift-seconds"))))
                : player.play(bundle, job, ns);
        ObjectNode out = JSON.createObjectNode().put("jobId", r.jobId()).put("namespace", r.namespace());
        r.pods().forEach(out.putArray("pods")::add);
        out.put("events", r.events()).put("logLines", r.logLines()).put("series", r.series())
                .put("samples", r.samples()).put("shiftSeconds", r.shift().toSeconds());
        send(ex, 200, out);
    }

    private static ObjectNode problem(int status, String title, String detail) {
        return JSON.createObjectNode().put("type", "about:blank").put("title", title).put("status", status)
                .put("detail", detail);
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> m = new HashMap<>();
        if (raw != null) {
            for (String part : raw.split("&")) {
                int eq = part.indexOf('=');
                if (eq > 0) {
                    m.put(URLDecoder.decode(part.substring(0, eq), StandardCharsets.UTF_8),
                            URLDecoder.decode(part.substring(eq + 1), StandardCharsets.UTF_8));
                }
            }
        }
        return m;
    }

    private static void send(HttpExchange ex, int status, JsonNode body) throws IOException {
        byte[] bytes = JSON.writeValueAsBytes(body);
        ex.getResponseHeaders().set("Content-Type", status >= 400 ? "application/problem+json" : "application/json");
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
