package io.jobmon.metrics.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.jobmon.contracts.events.JobStatus;
import io.jobmon.metrics.Fixtures;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Where a job ran, from its successive snapshots. */
class PlacementsTest {

    static final Instant T = Instant.parse("2025-06-01T10:00:00Z");

    static long ms(int minutes) {
        return T.plusSeconds(60L * minutes).toEpochMilli();
    }

    @Test
    void intervalsOpenWhenTheJobRunsOnANodeMoveWithItsPodsAndCloseWhenItEnds() {
        var running = Fixtures.job("j", JobStatus.RUNNING, List.of("j-0"), List.of("n1"), 8, T, null, 2);
        List<Placements.Interval> i = Placements.next(List.of(), running, ms(1));
        assertEquals(1, i.size());
        assertEquals(T.toEpochMilli(), i.get(0).fromMs(), "from the job's start");
        assertNull(i.get(0).toMs());
        assertEquals(List.of("j-0"), i.get(0).pods());
        assertEquals(8, i.get(0).gpus());
        var moved = Fixtures.job("j", JobStatus.RUNNING, List.of("j-0"), List.of("n2"), 8, T, null, 3);
        i = Placements.next(i, moved, ms(30));
        assertEquals(2, i.size());
        assertEquals(ms(30), i.get(0).toMs());
        assertEquals(ms(30), i.get(1).fromMs());
        var done = Fixtures.job("j", JobStatus.SUCCEEDED, List.of("j-0"), List.of("n2"), 8, T, T.plusSeconds(3600), 4);
        i = Placements.next(i, done, ms(61));
        assertEquals(T.plusSeconds(3600).toEpochMilli(), i.get(1).toMs(), "closed at the job's end");
    }

    @Test
    void aFinishedJobSeenOnlyInItsLastSnapshotGetsItsWholeRunOnItsNodes() {
        var done = Fixtures.job("j", JobStatus.FAILED, List.of("j-0", "j-1"), List.of("n1", "n2"), 16, T,
                T.plusSeconds(600), 9);
        List<Placements.Interval> i = Placements.next(List.of(), done, ms(20));
        assertEquals(2, i.size());
        assertEquals(T.toEpochMilli(), i.get(0).fromMs());
        assertEquals(T.plusSeconds(600).toEpochMilli(), i.get(0).toMs());
        assertEquals(List.of(), i.get(0).pods(), "two pods on two nodes: which is where is not known");
        assertEquals(8, i.get(0).gpus());
    }
}
