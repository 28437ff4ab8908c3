package io.jobmon.contracts.outbox;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** The transactional outbox of a service ({@link Outbox}): where what it publishes waits for the broker. */
@ConfigMapping(prefix = "jobmon.outbox")
public interface OutboxConfig {

    /** Whether this service has an outbox table and relays it (every instance may; they share the work). */
    @WithDefault("false")
    boolean enabled();

    /** How often a round looks for unpublished records (read by {@link OutboxRelay}'s {@code @Scheduled}). */
    @WithDefault("0.5s")
    String interval();

    /** Rows published per round; a full round is followed by the next at once. */
    @WithDefault("500")
    int batchSize();

    /**
     * How long rows claimed by an instance stay reserved for it: if it dies before publishing them, another
     * instance takes them after this. Must exceed {@link #sendTimeout()}.
     */
    @WithDefault("PT60S")
    Duration claimTtl();

    /** How long a round waits for the broker's acknowledgements before it gives up and releases the rest. */
    @WithDefault("PT15S")
    Duration sendTimeout();
}
