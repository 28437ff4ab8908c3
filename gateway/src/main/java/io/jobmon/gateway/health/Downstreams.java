package io.jobmon.gateway.health;

import io.jobmon.gateway.config.GatewayConfig;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Asks downstream services for documents (readiness, OpenAPI) without blocking an event-loop thread; of a service with
 * several replicas (comma-separated management URLs), the first replica that answers.
 */
@ApplicationScoped
public class Downstreams {

    private final Map<String, String> services;
    private final Map<String, String> management;
    private final Duration timeout;
    private final HttpClient http;

    public Downstreams(GatewayConfig config) {
        this.services = new TreeMap<>(config.services());
        this.management = config.management();
        this.timeout = config.healthTimeout();
        // HTTP/1.1: the JDK client's default h2c upgrade against Vert.x management servers is an extra round trip and a
        // protocol switch that a probe does not need
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(timeout).build();
    }

    public Map<String, String> services() {
        return services;
    }

    /**
     * GET {@code path} on the named service's management interface: the response, or a failed Uni when it cannot
     * be reached in time.
     */
    public Uni<HttpResponse<String>> get(String service, String path) {
        return get(service, path, timeout);
    }

    /** {@link #get(String, String)} with a time limit of its own (a large document takes longer than a probe). */
    public Uni<HttpResponse<String>> get(String service, String path, Duration limit) {
        String bases = management.get(service);
        if (bases == null) {
            return Uni.createFrom().failure(new IllegalStateException("no management URL for " + service));
        }
        return first(List.of(bases.split(",")), 0, path, limit);
    }

    /** Several replicas: the first one that answers 2xx, else the last one's answer (or failure). */
    private Uni<HttpResponse<String>> first(List<String> bases, int i, String path, Duration limit) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(bases.get(i).strip() + path))
                .timeout(limit).GET().build();
        Uni<HttpResponse<String>> answer = Uni.createFrom()
                .completionStage(() -> http.sendAsync(request, HttpResponse.BodyHandlers.ofString()));
        if (i + 1 == bases.size()) {
            return answer;
        }
        return answer.onFailure().recoverWithItem(e -> null)
                .chain(r -> r != null && r.statusCode() / 100 == 2 ? Uni.createFrom().item(r) : first(bases, i + 1, path, limit));
    }
}
