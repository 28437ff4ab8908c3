package io.jobmon.metrics.scrape;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * An HTTP endpoint serving real exporter output, as dcgm-exporter and node_exporter would: {@code /dcgm},
 * {@code /node}, {@code /om} (OpenMetrics), {@code /broken} (not the format). Started once per test JVM.
 */
public final class ExporterServer {

    private static HttpServer server;

    private ExporterServer() {
    }

    public static synchronized int port() {
        if (server == null) {
            try {
                server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            serve("/dcgm", "text/plain; version=0.0.4; charset=utf-8", ExpositionParserTest.resource("dcgm-exporter-a100-pods.txt"));
            serve("/node", "text/plain; version=0.0.4; charset=utf-8", ExpositionParserTest.resource("node-exporter-e2e-output.txt"));
            serve("/om", "application/openmetrics-text; version=1.0.0; charset=utf-8",
                    "# TYPE jobmon_test_om gauge\njobmon_test_om{x=\"1\"} 42\n# EOF\n");
            serve("/broken", "text/plain", "<html>this is a login page</html>\n");
            server.start();
        }
        return server.getAddress().getPort();
    }

    private static void serve(String path, String type, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        server.createContext(path, ex -> {
            ex.getResponseHeaders().set("Content-Type", type);
            ex.sendResponseHeaders(200, bytes.length);
            ex.getResponseBody().write(bytes);
            ex.close();
        });
    }
}
