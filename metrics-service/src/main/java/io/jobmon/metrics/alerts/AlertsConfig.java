package io.jobmon.metrics.alerts;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/** Alerts in the API ({@code jobmon.alerts.*}, docs/adr/0034-alerts-from-alertmanager.md). */
@ConfigMapping(prefix = "jobmon.alerts")
public interface AlertsConfig {

    /** Alertmanager's base URL (its v2 API under {@code /api/v2}); absent: firing alerts and silences answer 503. */
    Optional<String> alertmanagerUrl();

    /** How long a call to Alertmanager may take before the request answers 503. */
    @WithDefault("5s")
    Duration timeout();

    /** Days a resolved alert stays listed (the webhook's history). */
    @WithDefault("30")
    int retentionDays();

    /** Realm role the token of Alertmanager's webhook must carry (the monitoring stack's identity). */
    @WithDefault("metrics-writer")
    String webhookRole();

    /** The longest silence an admin may create. */
    @WithDefault("30d")
    Duration maxSilence();
}
