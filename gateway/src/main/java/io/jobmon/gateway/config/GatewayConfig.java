package io.jobmon.gateway.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Map;

/** Where the gateway sends each part of the API, and how patient and how generous it is. */
@ConfigMapping(prefix = "jobmon.gateway")
public interface GatewayConfig {

    /**
     * Base URL of each downstream service by route name: job, events, metrics, logs, diagnosis; several replicas'
     * URLs comma-separated (requests go round robin, passing over a replica that refuses the connection).
     */
    Map<String, String> services();

    /**
     * Base URL of each service's management interface by the same names: readiness and OpenAPI are read there
     * (the API port serves no {@code /q} path); several replicas' comma-separated: the service is ready when one is.
     */
    Map<String, String> management();

    /** How long to wait for a TCP connection to a downstream before answering 503. */
    @WithDefault("2S")
    Duration connectTimeout();

    /**
     * How long a downstream may stay silent mid-request before the gateway answers 504 (SSE sends heartbeats);
     * below {@code quarkus.http.idle-timeout}, which closes the client's connection.
     */
    @WithDefault("25S")
    Duration idleTimeout();

    /** How long a readiness probe of one downstream may take (readiness answers within a second). */
    @WithDefault("0.8S")
    Duration healthTimeout();

    /** How long fetching one service's OpenAPI document for the merged {@code /openapi} may take. */
    @WithDefault("10S")
    Duration openapiTimeout();

    RateLimit rateLimit();

    /** Per-user token bucket, kept in each gateway instance. */
    interface RateLimit {
        /** Requests a user regains every {@link #period()}: the sustained rate. */
        @WithDefault("50")
        int refill();

        /** The period over which {@link #refill()} requests are regained. */
        @WithDefault("1S")
        Duration period();

        /** Requests a user may make in one burst above the sustained rate. */
        @WithDefault("200")
        int burst();
    }
}
