package io.jobmon.gateway;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import java.net.ServerSocket;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Stand-ins for the services behind the gateway (the end-to-end test uses the real ones): each echoes what it
 * received and names itself; {@code logs} streams SSE on demand; {@code diagnosis} is configured on a port
 * where nothing listens, as a service that is down; {@code metrics} as two replicas, the first of them down. A follow
 * with a stream ticket is echoed (what reached the service).
 */
public class FakeDownstreams implements QuarkusTestResourceLifecycleManager {

    /** Released by a test to let the SSE stream send its second event. */
    public static volatile CountDownLatch secondEvent = new CountDownLatch(1);
    public static final int DOWNLOAD_BYTES = 5 * 1024 * 1024;

    private Vertx vertx;

    @Override
    public Map<String, String> start() {
        vertx = Vertx.vertx();
        Map<String, String> config = new HashMap<>();
        int dead = deadPort();
        for (String name : List.of("job", "events", "metrics", "logs")) {
            HttpServer server = vertx.createHttpServer().requestHandler(req -> serve(name, req));
            int port = server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().join().actualPort();
            // metrics runs as two replicas of which the first is down: every request and probe must reach the other.
            String urls = name.equals("metrics") ? "http://127.0.0.1:" + dead + ",http://127.0.0.1:" + port
                    : "http://127.0.0.1:" + port;
            config.put("jobmon.gateway.services." + name, urls);
            config.put("jobmon.gateway.management." + name, urls);
        }
        config.put("jobmon.gateway.services.diagnosis", "http://127.0.0.1:" + dead);
        config.put("jobmon.gateway.management.diagnosis", "http://127.0.0.1:" + dead);
        return config;
    }

    private void serve(String name, HttpServerRequest req) {
        req.response().putHeader("X-Jobmon-Service", "fake-" + name);
        if (req.getHeader("X-Request-Id") != null) {
            req.response().putHeader("X-Request-Id", req.getHeader("X-Request-Id")); // as every service echoes it
        }
        String path = req.path();
        if (path.equals("/q/health/ready")) {
            req.response().putHeader("Content-Type", "application/json").end("{\"status\":\"UP\"}");
        } else if (path.equals("/q/openapi")) {
            req.response().putHeader("Content-Type", "application/json").end(new JsonObject()
                    .put("openapi", "3.1.0")
                    .put("paths", new JsonObject().put("/api/v1/fake-" + name, new JsonObject()))
                    .encode());
        } else if (path.endsWith("/logs/stream") && req.getParam("ticket") == null) {
            req.response().setChunked(true).putHeader("Content-Type", "text/event-stream");
            req.response().write("id: 1\ndata: first\n\n");
            vertx.executeBlocking(() -> secondEvent.await(30, TimeUnit.SECONDS))
                    .onComplete(x -> req.response().end("id: 2\ndata: second\n\n"));
        } else if (path.endsWith("/logs/download")) {
            req.response().setChunked(true).putHeader("Content-Type", "text/plain");
            StringBuilder line = new StringBuilder();
            while (line.length() < 1023) {
                line.append('x');
            }
            String chunk = line.append('\n').toString();
            for (int i = 0; i < DOWNLOAD_BYTES / 1024; i++) {
                req.response().write(chunk);
            }
            req.response().end();
        } else if (path.endsWith("/hang")) {
            // never answers: the gateway must give up with 504
        } else {
            req.body().onSuccess(body -> req.response().putHeader("Content-Type", "application/json")
                    .end(new JsonObject()
                            .put("service", name)
                            .put("method", req.method().name())
                            .put("uri", req.uri())
                            .put("authorization", req.getHeader("Authorization") != null)
                            .put("requestId", req.getHeader("X-Request-Id"))
                            .put("bodyLength", body.length())
                            .encode()));
        }
    }

    private static int deadPort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void stop() {
        if (vertx != null) {
            vertx.close();
        }
    }
}
