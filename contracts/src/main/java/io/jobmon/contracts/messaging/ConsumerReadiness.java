package io.jobmon.contracts.messaging;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * Shows consumers that are retrying as degraded: readiness stays UP (taking the instance out of service or
 * restarting it would not bring the database back), with each retrying channel, since when and its last error.
 */
@Readiness
@ApplicationScoped
public class ConsumerReadiness implements HealthCheck {

    private final ConsumerRule rule;

    public ConsumerReadiness(ConsumerRule rule) {
        this.rule = rule;
    }

    @Override
    public HealthCheckResponse call() {
        HealthCheckResponseBuilder b = HealthCheckResponse.named("Kafka consumers").up();
        var retrying = rule.retrying();
        b.withData("degraded", !retrying.isEmpty());
        retrying.forEach((channel, r) -> b.withData(channel, "retrying since " + r.since() + " (" + r.attempts()
                + " failed attempts): " + r.lastError()));
        return b.build();
    }
}
