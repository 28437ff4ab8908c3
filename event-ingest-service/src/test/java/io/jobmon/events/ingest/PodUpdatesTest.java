package io.jobmon.events.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.events.JobStatusChanged;
import io.jobmon.contracts.events.PodSummary;
import io.jobmon.events.k8s.PodVersions;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every pod change reaches jobmon.job.status within its batch: a transition carries every pod; a change that moves no
 * status becomes one pods-only record per job and batch, holding the latest state of each pod that changed.
 */
class PodUpdatesTest {

    static final Instant T = Instant.parse("2025-03-04T12:00:00Z");
    static final Instant OLD = Instant.parse("2024-01-01T00:00:00Z");
    static final String JOB = "j-pods";

    static RawRecord pod(String name, long rv, int restarts, String lastReason, int lastExit, long offset) {
        return new RawRecord(0, offset, T.plusSeconds(offset), "c1", "r1", JOB,
                PodVersions.view(PodVersions.restarted(JOB, name, rv, restarts, lastReason, lastExit)), null);
    }

    static BatchWrites apply(List<RawRecord> records) {
        return new BatchApplier(new HashMap<>(), new EventQuota(1, new HashMap<>()), OLD).apply(records);
    }

    @Test
    void restartsAfterTheCrashLoopTransitionBecomeOnePodsOnlyRecordWithTheLatestCount() {
        BatchWrites w = apply(List.of(pod("p0", 100, 0, null, 0, 0), pod("p0", 110, 3, "Error", 1, 1),
                pod("p0", 120, 5, "Error", 1, 2), pod("p0", 130, 9, "OOMKilled", 137, 3)));
        List<JobStatusChanged> out = w.transitions();
        assertEquals(3, out.size(), out.toString());
        assertEquals("CrashLoopBackOff", out.get(1).reason());
        JobStatusChanged update = out.get(2);
        assertTrue(update.podsOnly());
        assertEquals(JobStatus.RUNNING, update.status());
        assertEquals(2, update.sequence(), "the sequence of the last transition: it never moves the status");
        assertEquals(T.plusSeconds(3), update.time());
        PodSummary.ContainerSummary c = update.pods().get(0).containers().get(0);
        assertEquals(9, c.restartCount());
        assertEquals(new PodSummary.LastState("OOMKilled", 137, Instant.parse("2025-03-04T09:20:00Z")), c.lastState());
        assertEquals(1, w.podUpdates());
    }

    @Test
    void onlyThePodsThatChangedSinceTheLastTransitionTravelEachOnce() {
        BatchWrites w = apply(List.of(pod("p0", 100, 0, null, 0, 0), pod("p1", 101, 0, null, 0, 1),
                pod("p0", 110, 0, "Completed", 0, 2), pod("p0", 111, 0, "Completed", 0, 3)));
        List<JobStatusChanged> updates = w.transitions().stream().filter(JobStatusChanged::podsOnly).toList();
        assertEquals(1, updates.size());
        // p1 joined without moving the status; p0 changed twice: each pod once, in its latest state
        assertEquals(List.of("p1", "p0"), updates.get(0).pods().stream().map(PodSummary::name).toList());
        assertEquals("Completed", updates.get(0).pods().get(1).containers().get(0).lastState().reason());
    }

    @Test
    void aChangeThatMovesTheStatusIsATransitionAndNoPodsOnlyRecordFollowsIt() {
        BatchWrites w = apply(List.of(pod("p0", 100, 0, null, 0, 0), pod("p0", 110, 1, "Error", 1, 1)));
        assertFalse(w.transitions().stream().anyMatch(JobStatusChanged::podsOnly), w.transitions().toString());
        assertEquals(0, w.podUpdates());
    }
}
