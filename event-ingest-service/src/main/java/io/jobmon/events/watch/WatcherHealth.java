package io.jobmon.events.watch;

import io.smallrye.health.api.Wellness;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;

/**
 * Whether every watched cluster is being watched ({@code /q/health/well}). Not a readiness check on purpose: a
 * cluster's API server being away must not take the events API out of service.
 */
@Wellness
@ApplicationScoped
public class WatcherHealth implements HealthCheck {

    private final WatcherManager watchers;

    public WatcherHealth(WatcherManager watchers) {
        this.watchers = watchers;
    }

    @Override
    public HealthCheckResponse call() {
        HealthCheckResponseBuilder b = HealthCheckResponse.named("Kubernetes watchers").up();
        watchers.status().forEach((cluster, watching) -> {
            b.withData(cluster, watching ? "watching" : "not watching");
            if (!watching) {
                b.down();
            }
        });
        return b.build();
    }
}
