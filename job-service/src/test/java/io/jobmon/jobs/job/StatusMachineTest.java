package io.jobmon.jobs.job;

import static io.jobmon.contracts.events.JobStatus.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.contracts.access.Visibility;
import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.events.JobStatusChanged;
import io.jobmon.jobs.job.model.AttemptCause;
import io.jobmon.jobs.job.model.JobRecord;
import io.jobmon.jobs.job.model.Priority;
import io.jobmon.jobs.job.service.StatusMachine;
import io.jobmon.jobs.job.service.StatusMachine.Decision;
import io.jobmon.jobs.job.service.StatusMachine.Effect;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class StatusMachineTest {

    private static final Instant T0 = Instant.parse("2026-07-06T09:30:00Z");

    static JobRecord job(JobStatus status, long lastSequence, Instant started, String failure) {
        return new JobRecord("j-1", "t1", "alice", "project-nlp", "n", "c", "r", "ns", "q", Priority.NORMAL, status,
                "Submitted", null, null, failure, null, null, "A800", 1, 1, Visibility.PRIVATE, List.of(), List.of(),
                null, false, false, 0, "j-1", 1, AttemptCause.INITIAL, null, null, null, 0, null, T0, null, started,
                null, lastSequence, 1, T0);
    }

    /** A job that FAILED at T0 + 80 s with this reason (and failure reason), sequence 2. */
    static JobRecord failed(String reason) {
        return new JobRecord("j-1", "t1", "alice", "project-nlp", "n", "c", "r", "ns", "q", Priority.NORMAL, FAILED,
                reason, null, null, reason, null, null, "A800", 1, 1, Visibility.PRIVATE, List.of(), List.of(), null,
                false, false, 0, "j-1", 1, AttemptCause.INITIAL, null, null, null, 0, null, T0, T0, T0,
                T0.plusSeconds(80), 2, 1, T0);
    }

    static JobStatusChanged event(JobStatus status, long seq, String reason, int secondsAfter) {
        return new JobStatusChanged("j-1", "c", status, reason, "m", null, T0.plusSeconds(secondsAfter), seq, List.of());
    }

    @Test
    void aNewerTransitionChangesStatusAndStampsTimes() {
        Decision d = StatusMachine.onEvent(job(PENDING, 0, null, null), event(RUNNING, 1, "Started", 60));
        assertEquals(Effect.CHANGE, d.effect());
        assertEquals(RUNNING, d.update().status());
        assertEquals(T0.plusSeconds(60), d.update().startedAt());
        assertEquals(T0.plusSeconds(60), d.update().firstEventAt());
        assertNull(d.update().finishedAt());
        assertEquals(1, d.update().lastSequence());
    }

    @Test
    void duplicatesAndOlderTransitionsChangeNothing() {
        assertEquals(Effect.IGNORE, StatusMachine.onEvent(job(RUNNING, 5, T0, null), event(RUNNING, 5, "x", 1)).effect());
        assertEquals(Effect.IGNORE, StatusMachine.onEvent(job(RUNNING, 5, T0, null), event(PENDING, 3, "x", 1)).effect());
    }

    @Test
    void aFinalJobsStatusNeverChangesAgainButLaterReportsStillBringItsPods() {
        StatusMachine.Decision succeeded = StatusMachine.onEvent(job(SUCCEEDED, 2, T0, null), event(RUNNING, 9, "x", 1));
        assertEquals(Effect.TRACK, succeeded.effect());
        assertEquals(SUCCEEDED, succeeded.update().status());
        assertEquals(9, succeeded.update().lastSequence());
        StatusMachine.Decision stopped = StatusMachine.onEvent(job(STOPPED, 2, T0, null), event(FAILED, 9, "x", 1));
        assertEquals(Effect.TRACK, stopped.effect());
        assertEquals(STOPPED, stopped.update().status());
        assertEquals(Effect.IGNORE, StatusMachine.onEvent(job(STOPPED, 9, T0, null), event(FAILED, 9, "x", 1)).effect());
    }

    @Test
    void aFailureKeepsTheFirstReasonAsFailureReasonAndEnds() {
        Decision d = StatusMachine.onEvent(job(RUNNING, 1, T0, null), event(FAILED, 2, "OOMKilled", 90));
        assertEquals(FAILED, d.update().status());
        assertEquals("OOMKilled", d.update().failureReason());
        assertEquals(T0.plusSeconds(90), d.update().finishedAt());
        Decision later = StatusMachine.onEvent(job(ABNORMAL, 1, T0, "NodeLost"), event(FAILED, 2, "Error", 90));
        assertEquals("NodeLost", later.update().failureReason());
    }

    @Test
    void theJobControllersVerdictGivesWayToThePodsCauseWhenThatArrivesAfter() {
        JobRecord verdict = failed("BackoffLimitExceeded");
        Decision d = StatusMachine.onEvent(verdict, event(FAILED, 3, "OOMKilled", 85));
        assertEquals(Effect.CHANGE, d.effect());
        assertEquals(FAILED, d.update().status());
        assertEquals("OOMKilled", d.update().reason());
        assertEquals("OOMKilled", d.update().failureReason());
        assertEquals(T0.plusSeconds(80), d.update().finishedAt(), "it failed when it failed");
        // Only the verdict gives way: a FAILED job with a pod's cause keeps it.
        JobRecord cause = failed("OOMKilled");
        assertEquals(Effect.TRACK, StatusMachine.onEvent(cause, event(FAILED, 3, "Error", 85)).effect());
        assertEquals(Effect.TRACK, StatusMachine.onEvent(verdict, event(FAILED, 3, "BackoffLimitExceeded", 85)).effect());
    }

    @Test
    void aStoppingJobEndsStoppedUnlessItSucceeded() {
        assertEquals(STOPPED, StatusMachine.onEvent(job(STOPPING, 1, T0, null), event(FAILED, 2, "Error", 5)).update().status());
        assertEquals(SUCCEEDED, StatusMachine.onEvent(job(STOPPING, 1, T0, null), event(SUCCEEDED, 2, "Done", 5)).update().status());
        Decision running = StatusMachine.onEvent(job(STOPPING, 1, T0, null), event(RUNNING, 2, "Started", 5));
        assertEquals(Effect.TRACK, running.effect());
        assertEquals(STOPPING, running.update().status());
    }

    /** The guard stopped it: the cluster's "Stopped" confirms the stop but does not replace who stopped it and why. */
    @Test
    void theEndOfAStopKeepsTheStopsReasonAndWords() {
        io.jobmon.contracts.i18n.Text words = io.jobmon.contracts.i18n.Text.of("job.message.terminated-by-guard",
                "d-1, d-2", io.jobmon.contracts.i18n.Text.of("category.CONTAINER_OOM"));
        JobRecord stopping = new JobRecord("j-1", "t1", "alice", "project-nlp", "n", "c", "r", "ns", "q",
                Priority.NORMAL, STOPPING, "TerminatedByFaultHandling", "stopped by automatic fault handling", words,
                null, null, null, "A800", 1, 1, Visibility.PRIVATE, List.of(), List.of(), null, false, true, 0, "j-1",
                1, AttemptCause.INITIAL, null, null, null, 0, null, T0, null, T0, null, 3, 1, T0);
        Decision d = StatusMachine.onEvent(stopping, event(STOPPED, 4, "Stopped", 30));
        assertEquals(STOPPED, d.update().status());
        assertEquals("TerminatedByFaultHandling", d.update().reason());
        assertEquals(words, d.update().messageText());
        assertEquals("stopped by automatic fault handling", d.update().message());
    }

    @Test
    void aNewPendingReasonIsATimelineEntryButTheSameOneIsNot() {
        JobRecord pending = job(PENDING, 1, null, null);
        assertEquals(Effect.CHANGE, StatusMachine.onEvent(pending, event(PENDING, 2, "Unschedulable", 5)).effect());
        assertEquals(Effect.TRACK, StatusMachine.onEvent(pending, event(PENDING, 2, "Submitted", 5)).effect());
    }

    @Test
    void actionsFollowTheState() {
        assertTrue(StatusMachine.canStop(QUEUED));
        assertTrue(StatusMachine.canStop(ABNORMAL));
        assertFalse(StatusMachine.canStop(SUCCEEDED));
        assertEquals(STOPPED, StatusMachine.stopTarget(QUEUED));
        assertEquals(STOPPING, StatusMachine.stopTarget(RUNNING));
        assertTrue(StatusMachine.canDelete(FAILED));
        assertFalse(StatusMachine.canDelete(RUNNING));
        assertFalse(StatusMachine.canDelete(ABNORMAL));
        assertTrue(StatusMachine.canResubmit(ABNORMAL));
        assertFalse(StatusMachine.canResubmit(PENDING));
    }
}
