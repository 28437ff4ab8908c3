package io.jobmon.gateway.routing;

import io.jobmon.contracts.http.HttpFilters;
import io.jobmon.contracts.http.RequestIds;
import io.jobmon.contracts.http.RouteTags;
import io.jobmon.contracts.i18n.Text;
import io.jobmon.contracts.problem.Problem;
import io.jobmon.gateway.config.GatewayConfig;
import io.jobmon.gateway.ratelimit.RateLimiter;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.httpproxy.HttpProxy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Streams each {@code /api/v1} request to the service that owns its path ({@link RouteTable}) with Vert.x's
 * reverse proxy: bodies flow both ways without buffering (log downloads, SSE), the bearer token and
 * {@code X-Request-Id} are forwarded. Security has already validated the token when this handler runs. A service
 * with several replicas gets its requests in turn ({@link Replicas}).
 */
@ApplicationScoped
public class ProxyRoutes {

    private final Map<String, HttpProxy> proxies = new HashMap<>();
    private final RateLimiter rateLimiter;

    public ProxyRoutes(GatewayConfig config, Vertx vertx, RateLimiter rateLimiter) {
        this.rateLimiter = rateLimiter;
        HttpClient client = vertx.createHttpClient(new HttpClientOptions()
                .setConnectTimeout((int) config.connectTimeout().toMillis())
                .setKeepAlive(true)
                .setMaxPoolSize(64));
        long idleMs = config.idleTimeout().toMillis();
        for (Map.Entry<String, String> e : config.services().entrySet()) {
            Replicas replicas = Replicas.of(e.getKey(), e.getValue());
            HttpProxy proxy = HttpProxy.reverseProxy(client)
                    .origin(ctx -> replicas.request(ctx.client(), idleMs))
                    .addInterceptor(new ProblemOnFailure(replicas.targets().get(0)))
                    .addInterceptor(new OneRequestId());
            proxies.put(replicas.name(), proxy);
        }
    }

    void register(@Observes Router router) {
        router.routeWithRegex("/api/v1/.*").order(10).handler(this::forward);
    }

    private void forward(RoutingContext rc) {
        // The path as the router matched it (/%61pi/v1/jobs is /api/v1/jobs), not as it was spelled.
        String path = rc.normalizedPath();
        Optional<String> service = RouteTable.serviceFor(path);
        if (service.isEmpty()) {
            rc.next(); // the gateway's own resources (/api/v1/me) or a 404 problem
            return;
        }
        RouteTags.template(rc, RouteTemplates.of(path));
        HttpProxy proxy = proxies.get(service.get());
        if (proxy == null) {
            HttpFilters.writeProblem(rc, Problem.of(503, Text.of("gateway.no-url",
                    Text.of(ProblemOnFailure.SERVICE + service.get()))));
            return;
        }
        if (!rateLimiter.tryAcquire(rc)) {
            return;
        }
        // The service names itself on what it answers; the gateway only on answers of its own. The request id is
        // forwarded and set once on the answer (OneRequestId), not added to the service's own echo of it.
        rc.response().headers().remove(HttpFilters.SERVICE_HEADER);
        rc.response().headers().remove(RequestIds.HEADER);
        proxy.handle(rc.request());
    }

}
