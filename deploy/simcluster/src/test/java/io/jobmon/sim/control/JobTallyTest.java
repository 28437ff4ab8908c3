package io.jobmon.sim.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** When the Job controller ends a Job, and how it writes completed indexes. */
class JobTallyTest {

    @Test
    void oneFailedPodFailsAJobWithBackoffLimitZero() {
        JobTally t = new JobTally();
        t.countActive(true);
        t.countFailed();
        assertEquals(JobTally.Outcome.FAILED, t.outcome(2, 0, true));
    }

    @Test
    void anIndexedJobCompletesWhenEveryIndexSucceeded() {
        JobTally t = new JobTally();
        t.countSucceeded(0);
        t.countActive(true);
        assertEquals(JobTally.Outcome.RUNNING, t.outcome(2, 0, true));
        t.countSucceeded(1);
        assertEquals(JobTally.Outcome.COMPLETE, t.outcome(2, 0, true));
    }

    @Test
    void failuresWithinTheBackoffLimitKeepItRunning() {
        JobTally t = new JobTally();
        t.countFailed();
        assertEquals(JobTally.Outcome.RUNNING, t.outcome(1, 6, false));
    }

    @Test
    void completedIndexesAreWrittenAsRanges() {
        JobTally t = new JobTally();
        assertNull(t.completedIndexesText());
        for (int i : new int[] {0, 1, 2, 5, 7, 8}) {
            t.countSucceeded(i);
        }
        assertEquals("0-2,5,7-8", t.completedIndexesText());
    }
}
