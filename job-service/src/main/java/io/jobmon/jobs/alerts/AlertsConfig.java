package io.jobmon.jobs.alerts;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/** Where job-service counts a job's firing alerts ({@code jobmon.alerts.*}, docs/adr/0034-alerts-from-alertmanager.md). */
@ConfigMapping(prefix = "jobmon.alerts")
public interface AlertsConfig {

    /** Alertmanager's base URL; absent: a job's {@code alertsFiring} is null. */
    Optional<String> alertmanagerUrl();

    /** How long the detail waits for Alertmanager before it answers without the count. */
    @WithDefault("1s")
    Duration timeout();

    /** How long a count (or Alertmanager's absence) is reused for the same job. */
    @WithDefault("5s")
    Duration cacheFor();
}
