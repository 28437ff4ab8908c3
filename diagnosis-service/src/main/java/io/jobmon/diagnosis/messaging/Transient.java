package io.jobmon.diagnosis.messaging;

import io.jobmon.contracts.events.InvalidRecordException;
import io.smallrye.mutiny.Uni;
import java.time.Duration;

/**
 * A consumer's database work is retried with back-off when it fails for a passing reason (the database restarting):
 * only an invalid record is a reason for the dead-letter queue, an outage is not.
 */
final class Transient {

    private Transient() {
    }

    static <T> Uni<T> retry(Uni<T> work) {
        return work.onFailure(e -> !(e instanceof InvalidRecordException))
                .retry().withBackOff(Duration.ofMillis(200), Duration.ofSeconds(5)).atMost(8);
    }
}
