package io.jobmon.events.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.events.k8s.EventView;
import java.time.Instant;
import java.util.HashMap;
import org.junit.jupiter.api.Test;

class EventQuotaTest {

    static EventView backOff(String uid, int minute, int count) {
        Instant t = Instant.parse("2025-03-04T09:00:00Z").plusSeconds(60L * minute);
        return new EventView("ns", "p." + uid, uid, 100 + minute, "Warning", "BackOff", "Back-off restarting", count, t, t,
                t, "Pod", "p", "ns", "spec.containers{trainer}", "kubelet");
    }

    @Test
    void keepsTheFirstAndTheLatestOfAReasonAndCountsTheRest() {
        EventQuota quota = new EventQuota(1, new HashMap<>());
        assertInstanceOf(EventQuota.Store.class, quota.admit("j", backOff("a", 0, 1)));
        assertInstanceOf(EventQuota.Store.class, quota.admit("j", backOff("b", 1, 2)));
        EventQuota.Decision third = quota.admit("j", backOff("c", 2, 3));
        assertEquals(new EventQuota.Replace("b", backOff("b", 1, 2).createdAt()), third);
        assertInstanceOf(EventQuota.Replace.class, quota.admit("j", backOff("d", 3, 4)));
        QuotaRow row = quota.rows().values().iterator().next();
        assertEquals(java.util.List.of("a"), row.firstUids());
        assertEquals("d", row.latestUid());
        assertEquals(2, row.omittedEvents());
        assertEquals(5, row.omittedOccurrences());
    }

    @Test
    void anUpdateOfAKeptEventIsStoredInPlace() {
        EventQuota quota = new EventQuota(1, new HashMap<>());
        quota.admit("j", backOff("a", 0, 1));
        assertInstanceOf(EventQuota.Store.class, quota.admit("j", backOff("a", 5, 6)));
        assertEquals(0, quota.rows().values().iterator().next().omittedEvents());
    }

    @Test
    void aCountedEventSeenAgainCountsOnlyItsNewOccurrences() {
        EventQuota quota = new EventQuota(1, new HashMap<>());
        quota.admit("j", backOff("a", 0, 1));
        quota.admit("j", backOff("b", 1, 2));
        quota.admit("j", backOff("c", 2, 1)); // b is counted now (2 occurrences)
        assertInstanceOf(EventQuota.Unchanged.class, quota.admit("j", backOff("b", 1, 2)), "a redelivery");
        assertInstanceOf(EventQuota.Count.class, quota.admit("j", backOff("b", 1, 5)), "b went on");
        QuotaRow row = quota.rows().values().iterator().next();
        assertEquals(1, row.omittedEvents());
        assertEquals(5, row.omittedOccurrences());
    }

    @Test
    void anOlderEventThanTheLatestIsCountedNotStored() {
        EventQuota quota = new EventQuota(1, new HashMap<>());
        quota.admit("j", backOff("a", 0, 1));
        quota.admit("j", backOff("c", 9, 1));
        assertInstanceOf(EventQuota.Count.class, quota.admit("j", backOff("b", 4, 2)));
    }

    @Test
    void reasonsAndContainersHaveTheirOwnQuota() {
        EventQuota quota = new EventQuota(1, new HashMap<>());
        quota.admit("j", backOff("a", 0, 1));
        quota.admit("j", backOff("b", 1, 1));
        EventView other = new EventView("ns", "x", "x", 1, "Normal", "Pulled", "pulled", 1, backOff("x", 2, 1).createdAt(),
                null, backOff("x", 2, 1).lastTime(), "Pod", "p", "ns", "spec.containers{trainer}", "kubelet");
        assertInstanceOf(EventQuota.Store.class, quota.admit("j", other));
        assertEquals(2, quota.rows().size());
    }

    @Test
    void aRowOfOnlyFirstsIsNotWrittenUnlessItIsStoredAlready() {
        EventQuota quota = new EventQuota(2, new HashMap<>());
        quota.admit("j", backOff("a", 0, 1));
        QuotaRow row = quota.rows().values().iterator().next();
        assertTrue(row.onlyFirsts(), "never stored: rebuilt from the events when read");
        row.stored = true; // as read from event_quota (a row of an earlier version)
        quota.admit("j", backOff("b", 1, 1));
        assertEquals(java.util.List.of("a", "b"), row.firstUids());
        assertFalse(row.onlyFirsts(), "stored: written on every change, never left stale");
    }
}
