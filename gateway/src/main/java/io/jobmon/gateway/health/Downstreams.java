package io.jobmon.gateway.health;

import io.jobmon.gateway.config.GatewayConfig;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/** Asks downstream services for documents (readiness, OpenAPI) without blocking an event-loop thread. */
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
        this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
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
        String base = management.get(service);
        if (base == null) {
            return Uni.createFrom().failure(new IllegalStateException("no management URL for " + service));
        }
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(limit).GET().build();
        return Uni.createFrom().completionStage(() -> http.sendAsync(request, HttpResponse.BodyHandlers.ofString()));
    }
}
