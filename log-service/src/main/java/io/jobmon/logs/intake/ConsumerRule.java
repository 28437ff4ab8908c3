package io.jobmon.logs.intake;

import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * The consumer failure rule of the suite (issue #10; to be replaced by the shared one in contracts' messaging
 * package): a record that fails with {@code InvalidRecordException} goes to the DLQ at once with the reason (the
 * callers nack it into the channel's dead-letter queue); any other failure is retried with capped backoff until it
 * succeeds, holding the partition.
 */
public final class ConsumerRule {

    private static final Logger LOG = Logger.getLogger(ConsumerRule.class);
    public static final Duration FIRST_BACKOFF = Duration.ofMillis(100);
    public static final Duration MAX_BACKOFF = Duration.ofSeconds(10);

    private ConsumerRule() {
    }

    /** Applies {@code work} (subscribed afresh on every try) until it succeeds. */
    public static <T> Uni<T> untilDone(String what, Supplier<Uni<T>> work) {
        return Uni.createFrom().<T>deferred(() -> work.get())
                .onFailure().invoke(e -> LOG.warnf("%s failed, retrying: %s", what, e.toString()))
                .onFailure().retry().withBackOff(FIRST_BACKOFF, MAX_BACKOFF).indefinitely();
    }
}
