package io.jobmon.metrics.store;

import com.fasterxml.jackson.databind.JsonNode;
import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.metrics.config.MetricsConfig;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.mutiny.core.MultiMap;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.core.buffer.Buffer;
import io.vertx.mutiny.ext.web.client.HttpResponse;
import io.vertx.mutiny.ext.web.client.WebClient;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The HTTP API of a Prometheus-compatible engine (Prometheus, VictoriaMetrics, Thanos, Mimir): {@code /api/v1/series},
 * {@code /api/v1/query}, {@code /api/v1/query_range} (form posts: a job's matchers make long queries) and remote-write.
 */
@ApplicationScoped
public class PromClient {

    /** One series of a result: its labels and its samples (ms, value), or none for {@code /api/v1/series}. */
    public record Series(Map<String, String> labels, long[] t, double[] v) {
    }

    /**
     * The engine answered outside 2xx: {@code retry} unless it refused the request itself (400: out of order, out of
     * bounds, a duplicate with another value), which no later attempt changes; a 404 or 401 (a receiver not enabled,
     * a token missing) is a setup to fix, held and retried rather than dropped.
     */
    public static final class EngineException extends RuntimeException {
        public final int status;

        EngineException(int status, String message) {
            super(message);
            this.status = status;
        }

        public boolean retry() {
            return status != 400;
        }
    }

    private final WebClient client;
    private final String base;
    private final String writeUrl;
    private final long timeoutMs;

    public PromClient(Vertx vertx, MetricsConfig config) {
        MetricsConfig.Prometheus p = config.prometheus();
        // HTTP/1.1: Prometheus and VictoriaMetrics do not speak cleartext HTTP/2
        this.client = WebClient.create(vertx, new WebClientOptions().setProtocolVersion(HttpVersion.HTTP_1_1)
                .setMaxPoolSize(Math.max(4, 2 * p.concurrency())).setKeepAlive(true).setTryUseCompression(true));
        this.base = p.url().map(u -> u.replaceAll("/+$", "")).orElse("");
        this.writeUrl = p.remoteWriteUrl().orElse(base + "/api/v1/write");
        this.timeoutMs = p.timeout().toMillis();
    }

    @PreDestroy
    void close() {
        client.close();
    }

    /** Series matching any of the selectors, in [start, end] (seconds; VictoriaMetrics' default is only a day). */
    public Uni<List<Series>> series(List<String> selectors, long startMs, long endMs) {
        MultiMap form = MultiMap.caseInsensitiveMultiMap();
        selectors.forEach(s -> form.add("match[]", s));
        form.add("start", seconds(startMs)).add("end", seconds(endMs));
        return post("/api/v1/series", form).map(data -> {
            List<Series> out = new ArrayList<>(data.size());
            data.forEach(n -> out.add(new Series(labels(n), null, null)));
            return out;
        });
    }

    /** An instant query at {@code timeMs}: a range vector's raw samples (matrix) or an instant vector. */
    public Uni<List<Series>> query(String query, long timeMs) {
        MultiMap form = MultiMap.caseInsensitiveMultiMap().add("query", query).add("time", seconds(timeMs));
        return post("/api/v1/query", form).map(PromClient::results);
    }

    /** {@code query_range} from {@code startMs} to {@code endMs} every {@code stepMs}. */
    public Uni<List<Series>> queryRange(String query, long startMs, long endMs, long stepMs) {
        MultiMap form = MultiMap.caseInsensitiveMultiMap().add("query", query).add("start", seconds(startMs))
                .add("end", seconds(endMs)).add("step", seconds(stepMs));
        return post("/api/v1/query_range", form).map(PromClient::results);
    }

    /** Posts a snappy-compressed prompb WriteRequest; fails with {@link EngineException} unless 2xx. */
    public Uni<Void> write(byte[] body) {
        URI u = URI.create(writeUrl);
        return client.postAbs(u.toString()).timeout(timeoutMs)
                .putHeader("Content-Type", "application/x-protobuf").putHeader("Content-Encoding", "snappy")
                .putHeader("X-Prometheus-Remote-Write-Version", "0.1.0")
                .sendBuffer(Buffer.buffer(body))
                .onFailure(e -> !(e instanceof EngineException))
                .transform(e -> new EngineException(0, "remote-write to " + writeUrl + ": " + e.getMessage()))
                .map(r -> {
                    if (r.statusCode() / 100 != 2) {
                        throw new EngineException(r.statusCode(), "remote-write to " + writeUrl + ": " + r.statusCode()
                                + " " + abbreviate(r.bodyAsString()));
                    }
                    return null;
                });
    }

    private Uni<JsonNode> post(String path, MultiMap form) {
        if (base.isEmpty()) {
            return Uni.createFrom().failure(new IllegalStateException("jobmon.metrics.prometheus.url is not set"));
        }
        return client.postAbs(base + path).timeout(timeoutMs).sendForm(form)
                .onFailure().transform(e -> new EngineException(0, path + ": " + e.getMessage()))
                .map(r -> data(path, r));
    }

    private static JsonNode data(String path, HttpResponse<Buffer> r) {
        if (r.statusCode() / 100 != 2) {
            throw new EngineException(r.statusCode(), path + ": " + r.statusCode() + " " + abbreviate(r.bodyAsString()));
        }
        try {
            JsonNode root = CloudEvents.MAPPER.readTree(r.body().getBytes());
            JsonNode data = root.path("data");
            return data.has("result") ? data.get("result") : data;
        } catch (java.io.IOException e) {
            throw new EngineException(502, path + ": unreadable answer: " + e.getMessage());
        }
    }

    /** A matrix ({@code values}) or vector ({@code value}) result. */
    static List<Series> results(JsonNode result) {
        List<Series> out = new ArrayList<>(result.size());
        for (JsonNode s : result) {
            JsonNode values = s.has("values") ? s.get("values") : null;
            int n = values != null ? values.size() : s.has("value") ? 1 : 0;
            long[] t = new long[n];
            double[] v = new double[n];
            for (int i = 0; i < n; i++) {
                JsonNode pair = values != null ? values.get(i) : s.get("value");
                t[i] = Math.round(pair.get(0).asDouble() * 1000);
                v[i] = value(pair.get(1).asText());
            }
            out.add(new Series(labels(s.path("metric")), t, v));
        }
        return out;
    }

    private static Map<String, String> labels(JsonNode n) {
        Map<String, String> m = new java.util.TreeMap<>();
        n.fields().forEachRemaining(e -> m.put(e.getKey(), e.getValue().asText()));
        return m;
    }

    static double value(String s) {
        return switch (s) {
            case "NaN" -> Double.NaN;
            case "+Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            default -> Double.parseDouble(s);
        };
    }

    static String seconds(long ms) {
        return java.math.BigDecimal.valueOf(ms, 3).toPlainString();
    }

    private static String abbreviate(String s) {
        return s == null ? "" : s.length() > 300 ? s.substring(0, 300) + "…" : s;
    }
}
