package io.jobmon.diagnosis.evidence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** What a task reads besides its window, from the job's times. */
class EvidencePlanTest {

    static final Instant TO = Instant.parse("2026-07-13T12:00:00Z");
    static final Instant FROM = TO.minus(Duration.ofMinutes(30));

    @Test
    void aJobRunningForThreeDaysIsReadAtOneMinuteStepsBeforeTheWindow() {
        Instant started = TO.minus(Duration.ofDays(3));
        EvidencePlan p = EvidencePlan.of(FROM, TO, started.minusSeconds(60), started, null, 4320);
        assertEquals(started, p.runFrom());
        assertEquals(60, p.runStepSeconds());
        assertEquals(started, p.searchFrom());
        assertNull(p.endTo(), "a running job has no end to read");
    }

    @Test
    void aLongerRunIsReadAtWholeMinuteStepsWithinThePointLimit() {
        Instant started = TO.minus(Duration.ofDays(10));
        EvidencePlan p = EvidencePlan.of(FROM, TO, null, started, null, 4320);
        long points = Duration.between(started, FROM).toSeconds() / p.runStepSeconds();
        assertEquals(240, p.runStepSeconds());
        assertEquals(true, points <= 4320, points + " points");
    }

    @Test
    void aJobThatStartedInsideTheWindowHasNoRunBeforeIt() {
        EvidencePlan p = EvidencePlan.of(FROM, TO, FROM.plusSeconds(60), FROM.plusSeconds(120), null, 4320);
        assertNull(p.runFrom());
        assertEquals(FROM, p.searchFrom());
    }

    @Test
    void theLastLinesAreReadWhenTheJobEndedOutsideTheWindow() {
        Instant finished = TO.plus(Duration.ofHours(2));
        EvidencePlan p = EvidencePlan.of(FROM, TO, null, TO.minus(Duration.ofDays(1)), finished, 4320);
        assertEquals(finished.plusSeconds(60), p.endTo());
        // the window of an automatic diagnosis ends a minute after the failure: it holds the end already
        Instant failed = TO.minusSeconds(60);
        assertNull(EvidencePlan.of(FROM, TO, null, TO.minus(Duration.ofDays(1)), failed, 4320).endTo());
    }

    @Test
    void aPendingJobIsReadFromItsSubmission() {
        Instant submitted = TO.minus(Duration.ofHours(2));
        EvidencePlan p = EvidencePlan.of(FROM, TO, submitted, null, null, 4320);
        assertEquals(submitted, p.runFrom());
    }
}
