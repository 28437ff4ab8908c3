package io.jobmon.jobs.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** The relay that publishes job snapshots from the outbox table to {@code jobmon.job.changes}. */
@ConfigMapping(prefix = "jobmon.outbox")
public interface OutboxConfig {

    /** Whether this instance runs the relay at all (every instance may; they share the work). */
    @WithDefault("true")
    boolean enabled();

    /** How often a round looks for unpublished snapshots (read by the relay's {@code @Scheduled}). */
    @WithDefault("0.5s")
    String interval();

    /** Snapshots published per round. */
    @WithDefault("200")
    int batchSize();

    /** How long a claimed row stays reserved for this instance if it dies before publishing it. */
    @WithDefault("PT30S")
    Duration claimTtl();

    /** How long the producer waits for the broker before a round is given up and retried. */
    @WithDefault("PT10S")
    Duration sendTimeout();
}
