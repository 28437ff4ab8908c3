package io.jobmon.events.status;

import static io.jobmon.contracts.events.JobStatus.ABNORMAL;
import static io.jobmon.contracts.events.JobStatus.FAILED;
import static io.jobmon.contracts.events.JobStatus.PARTIALLY_PENDING;
import static io.jobmon.contracts.events.JobStatus.PENDING;
import static io.jobmon.contracts.events.JobStatus.QUEUED;
import static io.jobmon.contracts.events.JobStatus.RUNNING;
import static io.jobmon.contracts.events.JobStatus.STOPPED;
import static io.jobmon.contracts.events.JobStatus.SUCCEEDED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.contracts.events.JobStatus;
import io.jobmon.events.k8s.EventView;
import io.jobmon.events.k8s.Fixtures;
import io.jobmon.events.k8s.PodView;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every row of the README's status mapping table, from Pod and Event JSON as Kubernetes writes them. */
class JobStatusDeriverTest {

    /** Applies fixtures in order: {@code pod-*}, {@code event-*}, {@code deleted:pod-*}; {@code stop} asks a stop. */
    static Derived derive(String... steps) {
        Map<String, PodView> pods = new LinkedHashMap<>();
        Map<String, Signal> signals = new LinkedHashMap<>();
        boolean stop = false;
        for (String step : steps) {
            if (step.equals("stop")) {
                stop = true;
            } else if (step.startsWith("deleted:")) {
                PodView p = Fixtures.pod(step.substring(8)).markDeleted();
                pods.put(p.name(), p);
            } else if (step.startsWith("pod")) {
                PodView p = Fixtures.pod(step);
                pods.put(p.name(), p);
            } else {
                EventView e = Fixtures.event(step);
                if (Signal.matters(e)) {
                    signals.put(Signal.of(e).key(), Signal.of(e));
                }
            }
        }
        return JobStatusDeriver.derive(new JobFacts(pods.values(), signals, stop));
    }

    static void assertStatus(JobStatus status, String reason, Derived d) {
        assertEquals(status, d.status(), () -> "status of " + d);
        assertEquals(reason, d.reason(), () -> "reason of " + d);
    }

    @Test
    void aPodNotYetScheduledIsPending() {
        assertStatus(PENDING, null, derive("pod-created"));
    }

    @Test
    void insufficientGpusQueueTheJobWithTheSchedulersReasonAndMessage() {
        Derived d = derive("pod-created", "event-failedscheduling-gpu");
        assertStatus(QUEUED, "FailedScheduling", d);
        assertTrue(d.message().contains("4 Insufficient nvidia.com/gpu"), d.message());
    }

    @Test
    void theUnschedulableConditionAloneQueuesTheJob() {
        Derived d = derive("pod-unschedulable-gpu");
        assertStatus(QUEUED, "FailedScheduling", d);
        assertTrue(d.message().startsWith("0/12 nodes are available"));
    }

    @Test
    void taintsAndAffinityQueueTheJobWithTheSchedulersMessage() {
        Derived d = derive("pod-created", "event-failedscheduling-taint");
        assertStatus(QUEUED, "FailedScheduling", d);
        assertTrue(d.message().contains("untolerated taint"), d.message());
    }

    @Test
    void aQueueQuotaOfTheSchedulerQueuesTheJob() {
        Derived d = derive("pod-created", "event-failedscheduling-quota");
        assertStatus(QUEUED, "FailedScheduling", d);
        assertTrue(d.message().contains("over its quota"));
    }

    @Test
    void aResourceQuotaRefusingThePodsQueuesTheJobBeforeAnyPodExists() {
        Derived d = derive("event-failedcreate-quota");
        assertStatus(QUEUED, "ExceededQuota", d);
        assertTrue(d.message().contains("exceeded quota: gpu-quota"));
    }

    @Test
    void somePodsScheduledAndSomeNotIsPartiallyPending() {
        Derived d = derive("pod-running", "pod2-unschedulable");
        assertStatus(PARTIALLY_PENDING, "FailedScheduling", d);
        assertTrue(d.message().contains("12 Insufficient nvidia.com/gpu"));
    }

    @Test
    void aScheduledPodCreatingItsContainersIsPending() {
        assertStatus(PENDING, null, derive("pod-created", "event-scheduled", "pod-container-creating"));
    }

    @Test
    void imagePullBackOffKeepsItPendingWithThatReason() {
        Derived d = derive("pod-imagepullbackoff");
        assertStatus(PENDING, "ImagePullBackOff", d);
        assertTrue(d.message().contains("Back-off pulling image"));
    }

    @Test
    void errImagePullIsShownAsImagePullBackOffWithThePullError() {
        Derived d = derive("pod-errimagepull");
        assertStatus(PENDING, "ImagePullBackOff", d);
        assertTrue(d.message().contains("not found"), d.message());
    }

    @Test
    void aMountFailureKeepsItPendingWithThatReason() {
        Derived d = derive("pod-container-creating", "event-failedmount");
        assertStatus(PENDING, "FailedMount", d);
        assertTrue(d.message().contains("access denied by server"));
    }

    @Test
    void anImagePullErrorOfOnePodKeepsAGangJobPendingEvenIfOthersRun() {
        assertStatus(PENDING, "ImagePullBackOff", derive("pod2-running", "pod-imagepullbackoff"));
    }

    @Test
    void allPodsRunningIsRunning() {
        Derived d = derive("pod-running", "pod2-running");
        assertStatus(RUNNING, null, d);
        assertEquals("2025-03-04T09:01:11Z", d.at().toString());
    }

    @Test
    void allPodsSucceededIsSucceeded() {
        assertStatus(SUCCEEDED, null, derive("pod-succeeded", "pod2-succeeded"));
    }

    @Test
    void onePodSucceededAndOneRunningIsStillRunning() {
        assertStatus(RUNNING, null, derive("pod-succeeded", "pod2-running"));
    }

    @Test
    void anOomKilledContainerFailsTheJobWithReasonAndExitCode() {
        Derived d = derive("pod-failed-oomkilled");
        assertStatus(FAILED, "OOMKilled", d);
        assertEquals(137, d.exitCode());
        assertTrue(d.message().contains("out of memory"));
    }

    @Test
    void exitCode1FailsTheJobWithTheTerminationMessage() {
        Derived d = derive("pod-failed-error-1");
        assertStatus(FAILED, "Error", d);
        assertEquals(1, d.exitCode());
        assertTrue(d.message().contains("ValueError: expected 4 dims"));
    }

    @Test
    void exitCode127IsCommandNotFound() {
        Derived d = derive("pod-failed-error-127");
        assertStatus(FAILED, "Error", d);
        assertEquals(127, d.exitCode());
        assertTrue(d.message().contains("command not found"));
    }

    @Test
    void exitCode137IsAKill() {
        Derived d = derive("pod-failed-error-137");
        assertEquals(137, d.exitCode());
        assertTrue(d.message().contains("SIGKILL"));
    }

    @Test
    void exitCode139IsASegmentationFault() {
        Derived d = derive("pod-failed-error-139");
        assertStatus(FAILED, "Error", d);
        assertEquals(139, d.exitCode());
        assertTrue(d.message().contains("segmentation fault"));
    }

    @Test
    void aCrashLoopWithRestartsLeftKeepsItRunningWithTheReason() {
        Derived d = derive("pod-crashloop");
        assertStatus(RUNNING, "CrashLoopBackOff", d);
        assertTrue(d.message().contains("restarted 3 times"), d.message());
    }

    @Test
    void theJobGivingUpAfterItsBackoffLimitFailsWithThePodsCause() {
        Derived d = derive("pod-crashloop", "pod-failed-error-1", "event-backofflimit");
        assertStatus(FAILED, "Error", d);
    }

    @Test
    void preemptionFailsTheJobAsPreemptedByAnotherTask() {
        Derived d = derive("pod-preempted");
        assertStatus(FAILED, "Preempted", d);
        assertEquals("was preempted by another task", d.message());
    }

    @Test
    void theSchedulersPreemptedEventAloneIsEnough() {
        Derived d = derive("pod-running", "event-preempted", "deleted:pod-running");
        assertStatus(FAILED, "Preempted", d);
        assertEquals("was preempted by another task", d.message());
    }

    @Test
    void anEvictedPodMakesTheJobAbnormalWithTheKubeletsMessage() {
        Derived d = derive("pod-evicted");
        assertStatus(ABNORMAL, "Evicted", d);
        assertTrue(d.message().contains("low on resource: ephemeral-storage"));
    }

    @Test
    void aLostNodeMakesTheJobAbnormal() {
        Derived d = derive("pod-nodelost");
        assertStatus(ABNORMAL, "NodeLost", d);
    }

    @Test
    void deletionAfterAStopIsStopped() {
        assertStatus(RUNNING, null, derive("pod-running", "stop", "pod-terminating"));
        assertStatus(STOPPED, "Stopped", derive("pod-running", "stop", "pod-terminated-after-delete",
                "deleted:pod-terminated-after-delete"));
    }

    @Test
    void theSigtermOfAStoppingPodIsNotAFailure() {
        assertStatus(RUNNING, null, derive("pod-running", "pod-terminated-after-delete"));
    }

    @Test
    void deletionWithoutAStopOrACauseIsAbnormalUntilTheStopIsKnown() {
        assertStatus(ABNORMAL, "PodDeleted", derive("pod-running", "deleted:pod-running"));
        assertStatus(STOPPED, "Stopped", derive("pod-running", "deleted:pod-running", "stop"));
    }

    @Test
    void aSucceededJobStaysSucceededWhenItsPodsAreCleanedUp() {
        assertStatus(SUCCEEDED, null, derive("pod-succeeded", "deleted:pod-succeeded"));
    }

    @Test
    void aMultiPodJobFollowsItsEarliestFailure() {
        Derived d = derive("pod-failed-oomkilled", "pod2-failed-error-1");
        assertStatus(FAILED, "OOMKilled", d);
        assertEquals(137, d.exitCode());
    }

    @Test
    void aFailureOutweighsRunningAndPendingPods() {
        assertStatus(FAILED, "Error", derive("pod-running", "pod2-unschedulable", "pod2-failed-error-1"));
    }

    @Test
    void noFactsAtAllIsPending() {
        Derived d = derive();
        assertStatus(PENDING, null, d);
        assertNull(d.exitCode());
    }
}
