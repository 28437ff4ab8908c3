package io.jobmon.contracts.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.contracts.events.InvalidRecordException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ConsumerRuleTest {

    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final ConsumerRule rule = new ConsumerRule(registry, Duration.ofMillis(1), Duration.ofMillis(5));

    double counted(String outcome) {
        var c = registry.find("jobmon.consumer.records").tag("outcome", outcome).counter();
        return c == null ? 0 : c.count();
    }

    @Test
    void anInvalidRecordFailsAtOnceForTheDeadLetterQueueAndIsCounted() {
        AtomicInteger attempts = new AtomicInteger();
        Uni<Void> handled = rule.handle("ch", "topic", () -> {
            attempts.incrementAndGet();
            return Uni.createFrom().failure(new InvalidRecordException("not JSON"));
        });
        InvalidRecordException e = assertThrows(InvalidRecordException.class, () -> handled.await().indefinitely());
        assertEquals("not JSON", e.getMessage());
        assertEquals(1, attempts.get(), "an invalid record is never retried");
        assertEquals(1, counted("dead_lettered"));
        assertTrue(rule.retrying().isEmpty());
    }

    @Test
    void anyOtherFailureIsRetriedFarBeyondAnyBudgetUntilItSucceedsAndShowsWhileItDoes() {
        AtomicInteger attempts = new AtomicInteger();
        AtomicInteger seenRetrying = new AtomicInteger();
        rule.handle("ch", "topic", () -> {
            if (!rule.retrying().isEmpty()) {
                seenRetrying.incrementAndGet();
            }
            return attempts.incrementAndGet() <= 50
                    ? Uni.createFrom().failure(new IllegalStateException("connection refused"))
                    : Uni.createFrom().voidItem();
        }).await().atMost(Duration.ofSeconds(20));
        assertEquals(51, attempts.get());
        assertTrue(seenRetrying.get() >= 49, "the channel showed as retrying while it did");
        assertTrue(rule.retrying().isEmpty(), "and stops showing once it recovered");
        assertEquals(1, counted("applied"));
        assertEquals(0, counted("dead_lettered"));
        assertEquals(50, registry.find("jobmon.consumer.retries").counter().count());
    }

    @Test
    void anInvalidRecordFoundOnARetryStillGoesToTheDeadLetterQueue() {
        AtomicInteger attempts = new AtomicInteger();
        Uni<Void> handled = rule.handle("ch", "topic", () -> attempts.incrementAndGet() == 1
                ? Uni.createFrom().failure(new RuntimeException("deadlock detected"))
                : Uni.createFrom().failure(new InvalidRecordException("no job j-1")));
        assertThrows(InvalidRecordException.class, () -> handled.await().indefinitely());
        assertEquals(2, attempts.get());
        assertTrue(rule.retrying().isEmpty());
    }
}
