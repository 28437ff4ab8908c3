package io.jobmon.sim.telemetry;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.jobmon.sim.cluster.SimNode;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * Per node a dcgm-exporter and a node_exporter endpoint ({@code GET /metrics}) on ports of their own: node i (in pool
 * order, from 0) serves dcgm-exporter on {@code basePort + 2i} and node_exporter on {@code basePort + 2i + 1} (a port
 * another process holds is replaced by a free one: the pods publish the ports served). A lost
 * node's endpoints close connections without answering, as an unreachable host fails a scrape. Replay nodes (a
 * bundle's nodes that are not in the fleet) get endpoints of their own, serving only their replayed series. The
 * node_exporter port is also the node's kubelet port (its Node's {@code daemonEndpoints.kubeletEndpoint.Port}): it
 * answers {@code GET /metrics/cadvisor} with the node's cAdvisor text (plain HTTP; an Authorization header, which a
 * real kubelet on 10250 checks, is ignored), the same text the API server's node proxy answers
 * ({@link #cadvisor(String)}).
 */
public final class ExporterServers implements AutoCloseable {

    /** A node's two ports. */
    public record Ports(int dcgm, int node) {
    }

    private final String host;
    private final int basePort;
    private final Supplier<Instant> clock;
    private final ReplaySeries replay;
    private final ExecutorService handlers = Executors.newFixedThreadPool(2, r -> {
        Thread t = new Thread(r, "sim-exporters");
        t.setDaemon(true);
        return t;
    });
    private final List<HttpServer> servers = new ArrayList<>();
    private final Map<String, Ports> ports = new LinkedHashMap<>();
    private final Map<String, Endpoint> kubelets = new java.util.concurrent.ConcurrentHashMap<>();
    private final Random random = new Random();

    public ExporterServers(String host, int basePort, Supplier<Instant> clock, ReplaySeries replay) {
        this.host = host;
        this.basePort = basePort;
        this.clock = clock;
        this.replay = replay;
    }

    /** What a node's kubelet serves: whether it is reachable, and its cAdvisor text. */
    public record Endpoint(Supplier<Boolean> up, Supplier<String> cadvisor) {
    }

    /** Serves a node of the fleet (its cAdvisor text from {@code pods}). */
    public synchronized Ports serve(SimNode node, CadvisorPods pods) {
        Endpoint kubelet = new Endpoint(node::reachable, () -> Cadvisor.render(node, pods.on(node.name()), clock.get())
                + replay.nextCadvisor(node.name(), clock.get()));
        return open(node.name(), kubelet,
                () -> DcgmExporter.render(node, clock.get(), random) + replay.nextDcgm(node.name(), clock.get()),
                () -> NodeExporter.render(node, clock.get()) + replay.nextNode(node.name(), clock.get()));
    }

    /** Serves a replay node: only the series a replay added for it. */
    public synchronized Ports serveReplay(String nodeName) {
        Ports p = ports.get(nodeName);
        return p != null ? p : open(nodeName, new Endpoint(() -> true, () -> replay.nextCadvisor(nodeName, clock.get())),
                () -> replay.nextDcgm(nodeName, clock.get()), () -> replay.nextNode(nodeName, clock.get()));
    }

    /** The node's kubelet, if it is served here (the API server's node proxy asks). */
    public Optional<Endpoint> cadvisor(String nodeName) {
        return Optional.ofNullable(kubelets.get(nodeName));
    }

    public synchronized Map<String, Ports> ports() {
        return Map.copyOf(ports);
    }

    private Ports open(String name, Endpoint kubelet, Supplier<String> dcgm, Supplier<String> nodeExporter) {
        int i = ports.size();
        Ports p = new Ports(start(basePort + 2 * i, kubelet.up(), Map.of("/metrics", dcgm)),
                start(basePort + 2 * i + 1, kubelet.up(), Map.of("/metrics", nodeExporter, "/metrics/cadvisor",
                        kubelet.cadvisor())));
        ports.put(name, p);
        kubelets.put(name, kubelet);
        return p;
    }

    /**
     * Serves {@code body} on {@code port}, or on a free port when another process holds that one (the port is
     * published in the exporter pod, where metrics-service's discovery reads it); returns the port served.
     */
    private int start(int port, Supplier<Boolean> up, Map<String, Supplier<String>> bodies) {
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(host, port), 16);
        } catch (java.net.BindException taken) {
            try {
                server = HttpServer.create(new InetSocketAddress(host, 0), 16);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot serve metrics on " + host, e);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serve metrics on " + host + ":" + port, e);
        }
        server.setExecutor(handlers);
        server.createContext("/metrics", ex -> answer(ex, up, bodies));
        server.start();
        servers.add(server);
        return server.getAddress().getPort();
    }

    private static void answer(HttpExchange ex, Supplier<Boolean> up, Map<String, Supplier<String>> bodies)
            throws IOException {
        try (ex) {
            if (!up.get()) {
                return;
            }
            Supplier<String> body = bodies.get(ex.getRequestURI().getPath());
            if (!"GET".equals(ex.getRequestMethod()) || body == null) {
                ex.sendResponseHeaders(404, -1);
                return;
            }
            byte[] bytes = body.get().getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", Exposition.CONTENT_TYPE);
            ex.sendResponseHeaders(200, bytes.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    @Override
    public synchronized void close() {
        servers.forEach(s -> s.stop(0));
        handlers.shutdownNow();
    }
}
