package io.jobmon.diagnosis.autofault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.contracts.events.JobSnapshot;
import io.jobmon.contracts.events.JobStatus;
import io.jobmon.diagnosis.autofault.AutoFaultPolicy.Outcome;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AutoFaultPolicyTest {

    private static Optional<JobSnapshot> job(JobStatus status, boolean auto, boolean supportsRestart, int retries,
            int max) {
        return Optional.of(new JobSnapshot("j", "t1", "alice", "p", "PRIVATE", List.of(), "n", "c", "r", "q", status,
                null, "A800", 8, List.of(), List.of(), supportsRestart, auto, retries, max, null, null, null, 1, false));
    }

    @Test
    void onlyRestartAndTerminateOfAnUnhealthyJobAreActedOn() {
        assertTrue(AutoFaultPolicy.actionable("RESTART", "TRAINING_HANG"));
        assertTrue(AutoFaultPolicy.actionable("TERMINATE", "GPU_OOM"));
        assertFalse(AutoFaultPolicy.actionable("RESTART", "HEALTHY"));
        assertFalse(AutoFaultPolicy.actionable("NONE", "HEALTHY"));
        assertFalse(AutoFaultPolicy.actionable("CONTACT_ADMIN", "GPU_HARDWARE_FAULT"));
        assertFalse(AutoFaultPolicy.actionable(null, null));
    }

    @Test
    void aRestartWithRetriesLeftIsCommanded() {
        AutoFaultPolicy.Decision d = AutoFaultPolicy.decide("RESTART", "TRAINING_HANG", "NCCL_COMMUNICATION_ERROR",
                job(JobStatus.RUNNING, true, true, 1, 3));
        assertEquals(Outcome.COMMANDED, d.outcome());
        assertTrue(d.reason().contains("TRAINING_HANG, then NCCL_COMMUNICATION_ERROR"), d.reason());
    }

    @Test
    void aRestartOfAJobThatCannotRestartIsRefused() {
        AutoFaultPolicy.Decision d = AutoFaultPolicy.decide("RESTART", "TRAINING_HANG", "TRAINING_HANG",
                job(JobStatus.RUNNING, true, false, 0, 3));
        assertEquals(Outcome.REFUSED, d.outcome());
        assertTrue(d.reason().contains("does not support restart"));
    }

    @Test
    void aRestartAtTheRetryLimitIsRefused() {
        AutoFaultPolicy.Decision d = AutoFaultPolicy.decide("RESTART", "TRAINING_HANG", "TRAINING_HANG",
                job(JobStatus.RUNNING, true, true, 3, 3));
        assertEquals(Outcome.REFUSED, d.outcome());
        assertTrue(d.reason().contains("retry limit reached (3 of 3"), d.reason());
    }

    @Test
    void terminateNeedsNoRetries() {
        assertEquals(Outcome.COMMANDED, AutoFaultPolicy.decide("TERMINATE", "GPU_OOM", "GPU_OOM",
                job(JobStatus.RUNNING, true, false, 3, 3)).outcome());
    }

    @Test
    void aJobThatStoppedRunningOrOptedOutOrIsUnknownIsSkipped() {
        assertEquals(Outcome.SKIPPED, AutoFaultPolicy.decide("TERMINATE", "GPU_OOM", "GPU_OOM",
                job(JobStatus.FAILED, true, true, 0, 3)).outcome());
        assertEquals(Outcome.SKIPPED, AutoFaultPolicy.decide("TERMINATE", "GPU_OOM", "GPU_OOM",
                job(JobStatus.RUNNING, false, true, 0, 3)).outcome());
        assertEquals(Outcome.SKIPPED, AutoFaultPolicy.decide("TERMINATE", "GPU_OOM", "GPU_OOM", Optional.empty())
                .outcome());
    }

    private static final java.util.Set<String> PLATFORM = java.util.Set.of("NODE_FAILURE", "PREEMPTED", "EVICTED");

    @Test
    void aJobThatEndedForAPlatformSideCauseIsRestartedOnlyWhenSureOptedInAndWithRetriesLeft() {
        assertEquals(Outcome.COMMANDED, AutoFaultPolicy.afterFailure("PREEMPTED", 0.9, PLATFORM, 0.5,
                job(JobStatus.FAILED, true, true, 0, 3)).orElseThrow().outcome());
        assertEquals(Outcome.COMMANDED, AutoFaultPolicy.afterFailure("NODE_FAILURE", 0.8, PLATFORM, 0.5,
                job(JobStatus.ABNORMAL, true, true, 2, 3)).orElseThrow().outcome());
        // the job's own fault, too unsure, not opted in, unknown: nothing to decide
        assertTrue(AutoFaultPolicy.afterFailure("GPU_OOM", 0.9, PLATFORM, 0.5, job(JobStatus.FAILED, true, true, 0, 3))
                .isEmpty());
        assertTrue(AutoFaultPolicy.afterFailure("PREEMPTED", 0.4, PLATFORM, 0.5, job(JobStatus.FAILED, true, true, 0, 3))
                .isEmpty());
        assertTrue(AutoFaultPolicy.afterFailure("PREEMPTED", 0.9, PLATFORM, 0.5, job(JobStatus.FAILED, false, true, 0, 3))
                .isEmpty());
        assertTrue(AutoFaultPolicy.afterFailure("PREEMPTED", 0.9, PLATFORM, 0.5, Optional.empty()).isEmpty());
        // recorded with why
        AutoFaultPolicy.Decision spent = AutoFaultPolicy.afterFailure("EVICTED", 0.9, PLATFORM, 0.5,
                job(JobStatus.FAILED, true, true, 3, 3)).orElseThrow();
        assertEquals(Outcome.REFUSED, spent.outcome());
        assertTrue(spent.reason().contains("retry limit reached (3 of 3"), spent.reason());
        assertEquals(Outcome.REFUSED, AutoFaultPolicy.afterFailure("EVICTED", 0.9, PLATFORM, 0.5,
                job(JobStatus.FAILED, true, false, 0, 3)).orElseThrow().outcome());
        assertEquals(Outcome.SKIPPED, AutoFaultPolicy.afterFailure("PREEMPTED", 0.9, PLATFORM, 0.5,
                job(JobStatus.STOPPED, true, true, 0, 3)).orElseThrow().outcome());
    }
}
