package io.jobmon.gateway.health;

import io.smallrye.health.api.AsyncHealthCheck;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * The gateway is ready when every service behind it is: the check lists each downstream with {@code UP} or
 * the reason it is not, so an operator sees at once which part of jobmon is missing.
 */
@Readiness
@ApplicationScoped
public class DownstreamReadiness implements AsyncHealthCheck {

    private final Downstreams downstreams;

    public DownstreamReadiness(Downstreams downstreams) {
        this.downstreams = downstreams;
    }

    @Override
    public Uni<HealthCheckResponse> call() {
        return Multi.createFrom().iterable(downstreams.services().keySet())
                .onItem().transformToUniAndMerge(name -> probe(name).map(state -> Map.entry(name, state)))
                .collect().asMap(Map.Entry::getKey, Map.Entry::getValue)
                .map(states -> {
                    // Informational: a service that is down answers its own paths with a 503 problem through the
                    // gateway; taking the gateway out of service would fail every other path too.
                    HealthCheckResponseBuilder b = HealthCheckResponse.named("downstream services").up();
                    states.forEach(b::withData);
                    return b.withData("degraded", !states.values().stream().allMatch("UP"::equals)).build();
                });
    }

    private Uni<String> probe(String name) {
        return downstreams.get(name, "/q/health/ready")
                .map(r -> r.statusCode() == 200 ? "UP" : "DOWN (HTTP " + r.statusCode() + ")")
                .onFailure().recoverWithItem(e -> "DOWN (" + e.getClass().getSimpleName() + ")");
    }
}
