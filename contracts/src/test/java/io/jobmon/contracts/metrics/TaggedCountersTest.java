package io.jobmon.contracts.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class TaggedCountersTest {

    @Test
    void everyValueIsThereAtZeroAndCountsOnItsOwn() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        TaggedCounters c = new TaggedCounters(registry, "jobmon.x", "outcome", "x by outcome", "ok", "bad");
        assertEquals(0, registry.get("jobmon.x").tag("outcome", "bad").counter().count());
        c.increment("ok", 3);
        c.increment("ok", 2);
        assertEquals(5, registry.get("jobmon.x").tag("outcome", "ok").counter().count());
        assertEquals(0, registry.get("jobmon.x").tag("outcome", "bad").counter().count());
        assertThrows(IllegalArgumentException.class, () -> c.increment("other", 1));
    }
}
