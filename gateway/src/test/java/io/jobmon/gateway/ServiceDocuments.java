package io.jobmon.gateway;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Management interfaces that serve the services' real OpenAPI documents — the repository's copies in
 * {@code docs/openapi/}, which each service's OpenApiTest keeps equal to what it serves. A service without a copy
 * (log-service and metrics-service until they land) is configured where nothing listens.
 */
public class ServiceDocuments implements QuarkusTestResourceLifecycleManager {

    /** Route name → the service whose document it serves. */
    static final Map<String, String> SERVICES = Map.of("job", "job-service", "events", "event-ingest-service",
            "diagnosis", "diagnosis-service", "logs", "log-service", "metrics", "metrics-service");

    private Vertx vertx;

    static Path document(String service) {
        return Path.of("..", "docs", "openapi", service + ".json");
    }

    @Override
    public Map<String, String> start() {
        vertx = Vertx.vertx();
        Map<String, String> config = new HashMap<>();
        SERVICES.forEach((route, service) -> {
            String url;
            if (Files.exists(document(service))) {
                String body = read(document(service));
                HttpServer server = vertx.createHttpServer().requestHandler(req -> req.response()
                        .putHeader("Content-Type", "application/json").end(body));
                int port = server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().join().actualPort();
                url = "http://127.0.0.1:" + port;
            } else {
                url = "http://127.0.0.1:" + deadPort();
            }
            config.put("jobmon.gateway.services." + route, url);
            config.put("jobmon.gateway.management." + route, url);
        });
        return config;
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int deadPort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void stop() {
        if (vertx != null) {
            vertx.close();
        }
    }
}
