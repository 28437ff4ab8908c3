package io.jobmon.diagnosis.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Node-level causes over what the pod shows, only for the pod's own node; summaries name the right entity; quota
 * denials of a partly started job; a quota the request can never fit.
 */
class NodeAndAdmissionRulesTest {

    private static final DiagnosisEngine ENGINE = new DiagnosisEngine();

    private static BundleBuilder oomKilledOn(String node) {
        return BundleBuilder.job("FAILED").jobTime("finishedAt", "2026-07-13T10:10:00Z")
                .pod("w-0", node, "Failed", "terminated", "OOMKilled", 137, 0);
    }

    @Test
    void aSystemOomOnThePodsNodeBeatsItsOomKilled() {
        Diagnosis d = ENGINE.analyze(oomKilledOn("gpu-3")
                .event("2026-07-13T10:05:00Z", "Warning", "SystemOOM", "Node/gpu-3",
                        "System OOM encountered, victim process: python, pid: 4242").build());
        assertEquals(Category.NODE_FAILURE, d.category(), d::summary);
        assertEquals(Action.RESTART, d.action());
        assertTrue(d.summary().contains("gpu-3"), d::summary);
        assertTrue(d.related().contains(Category.CONTAINER_OOM), d.related()::toString);
    }

    @Test
    void aSystemOomOnAnotherNodeIsSomeoneElsesProblem() {
        Diagnosis d = ENGINE.analyze(oomKilledOn("gpu-3")
                .event("2026-07-13T10:05:00Z", "Warning", "SystemOOM", "Node/gpu-9",
                        "System OOM encountered, victim process: python, pid: 4242").build());
        assertEquals(Category.CONTAINER_OOM, d.category(), d::summary);
    }

    @Test
    void theKernelsGlobalOomKillerIsTheNodeItsCgroupOomKillerTheContainer() {
        Diagnosis global = ENGINE.analyze(oomKilledOn("gpu-3").log("2026-07-13T10:05:00Z", null, "system",
                "Jul 13 10:05:00 gpu-3 kernel: Out of memory: Killed process 4242 (python3) total-vm:99kB, anon-rss:98kB").build());
        assertEquals(Category.NODE_FAILURE, global.category(), global::summary);
        Diagnosis cgroup = ENGINE.analyze(oomKilledOn("gpu-3").log("2026-07-13T10:05:00Z", null, "system",
                "Jul 13 10:05:00 gpu-3 kernel: Memory cgroup out of memory: Killed process 4242 (python3) total-vm:99kB").build());
        assertEquals(Category.CONTAINER_OOM, cgroup.category(), cgroup::summary);
        Diagnosis elsewhere = ENGINE.analyze(oomKilledOn("gpu-3").log("2026-07-13T10:05:00Z", null, "system",
                "Jul 13 10:05:00 gpu-7 kernel: Out of memory: Killed process 4242 (python3) total-vm:99kB, anon-rss:98kB").build());
        assertEquals(Category.CONTAINER_OOM, elsewhere.category(), "a kernel line of another node: " + elsewhere.summary());
    }

    @Test
    void aNodeEventOnlyOutranksACrashItCouldHaveCaused() {
        BundleBuilder keyError = BundleBuilder.job("FAILED").jobTime("finishedAt", "2026-07-13T10:10:00Z")
                .pod("w-0", "gpu-3", "Failed", "terminated", "Error", 1, 0)
                .log("2026-07-13T10:00:00Z", "w-0", "KeyError: 'input_ids'");
        Diagnosis later = ENGINE.analyze(keyError.event("2026-07-13T10:04:00Z", "Normal", "NodeNotReady", "Node/gpu-3",
                "Node gpu-3 status is now: NodeNotReady").build());
        assertEquals(Category.USER_CODE_ERROR, later.category(), "the node went away after the program had crashed");
        Diagnosis first = ENGINE.analyze(BundleBuilder.job("FAILED").jobTime("finishedAt", "2026-07-13T10:10:00Z")
                .pod("w-0", "gpu-3", "Failed", "terminated", "Error", 1, 0)
                .log("2026-07-13T10:00:00Z", "w-0", "RuntimeError: CUDA error: unspecified launch failure")
                .event("2026-07-13T10:00:50Z", "Normal", "NodeNotReady", "Node/gpu-3",
                        "Node gpu-3 status is now: NodeNotReady").build());
        assertEquals(Category.NODE_FAILURE, first.category(), "reported NotReady within a minute: " + first.summary());
    }

    @Test
    void nodePressureDecidesOnlyWhenAPodOnThatNodeFailedAfterIt() {
        String pressure = "Node gpu-3 status is now: NodeHasDiskPressure";
        Diagnosis failed = ENGINE.analyze(BundleBuilder.job("FAILED").jobTime("finishedAt", "2026-07-13T10:10:00Z")
                .pod("w-0", "gpu-3", "Failed", "terminated", "ContainerStatusUnknown", 137, 0)
                .event("2026-07-13T10:02:00Z", "Normal", "NodeHasDiskPressure", "Node/gpu-3", pressure).build());
        assertEquals(Category.EVICTED, failed.category(), failed::summary);
        Diagnosis otherNode = ENGINE.analyze(BundleBuilder.job("FAILED").jobTime("finishedAt", "2026-07-13T10:10:00Z")
                .pod("w-0", "gpu-4", "Failed", "terminated", "ContainerStatusUnknown", 137, 0)
                .event("2026-07-13T10:02:00Z", "Normal", "NodeHasDiskPressure", "Node/gpu-3", pressure).build());
        assertEquals(Category.UNKNOWN, otherNode.category(), otherNode::summary);
    }

    @Test
    void aNodeLostSummaryNeverNamesTheJobAsTheNode() {
        Diagnosis unnamed = ENGINE.analyze(BundleBuilder.job("ABNORMAL")
                .event("2026-07-13T10:00:00Z", "Warning", "NodeLost", "Job/audit-ft-2", "NodeLost").build());
        assertEquals(Category.NODE_FAILURE, unnamed.category(), unnamed::summary);
        assertFalse(unnamed.summary().contains("Node test-job"), unnamed::summary);
        assertTrue(unnamed.summary().startsWith("A node running test-job"), unnamed::summary);
        Diagnosis named = ENGINE.analyze(BundleBuilder.job("ABNORMAL").event("2026-07-13T10:00:00Z", "Warning", "NodeLost",
                "Job/audit-ft-2", "Node gpu-a800-017 which was running pod audit-ft-2-worker-1 is unresponsive").build());
        assertTrue(named.summary().startsWith("Node gpu-a800-017 went down"), named::summary);
    }

    @Test
    void aQuotaDenialOfAPartlyStartedJobIsNotResolvedByItsRunningPods() {
        String denied = "Error creating: pods \"t-worker-2\" is forbidden: exceeded quota: gpu, requested: "
                + "requests.nvidia.com/gpu=8, used: requests.nvidia.com/gpu=24, limited: requests.nvidia.com/gpu=24";
        BundleBuilder b = BundleBuilder.job("RUNNING")
                .pod("t-worker-0", "n1", "Running", "running", null, null, 0)
                .pod("t-worker-1", "n2", "Running", "running", null, null, 0)
                .event("2026-07-13T10:00:00Z", "Normal", "SuccessfulCreate", "Job/t-worker", "Created pod: t-worker-1")
                .event("2026-07-13T10:00:01Z", "Warning", "FailedCreate", "Job/t-worker", denied)
                .event("2026-07-13T10:10:01Z", "Warning", "FailedCreate", "Job/t-worker", denied);
        Diagnosis d = ENGINE.analyze(b.build());
        assertEquals(Category.QUOTA_EXCEEDED, d.category(), d::summary);
        assertEquals(Action.WAIT, d.action());
        Diagnosis later = ENGINE.analyze(b.event("2026-07-13T10:12:00Z", "Normal", "SuccessfulCreate", "Job/t-worker",
                "Created pod: t-worker-2").build());
        assertEquals(Category.UNKNOWN, later.category(), "created after all: " + later.summary());
    }

    @Test
    void aRequestAboveTheQuotasLimitCanNeverFit() {
        Diagnosis d = ENGINE.analyze(BundleBuilder.job("PENDING").event("2026-07-13T10:00:00Z", "Warning", "FailedCreate",
                "ReplicaSet/x-7d9", "Error creating: pods \"x-7d9-abcde\" is forbidden: exceeded quota: q, requested: "
                        + "limits.memory=512Gi,requests.nvidia.com/gpu=2, used: limits.memory=0,requests.nvidia.com/gpu=0, "
                        + "limited: limits.memory=256Gi,requests.nvidia.com/gpu=8").build());
        assertEquals(Category.QUOTA_EXCEEDED, d.category());
        assertEquals(Action.TERMINATE, d.action());
        assertTrue(d.summary().contains("limits.memory=512Gi"), d::summary);
    }

    @Test
    void kubernetesQuantitiesCompare() {
        assertEquals(0.8, QuotaLimits.quantity("800m"), 1e-9);
        assertEquals(1024.0 * 1024 * 1024, QuotaLimits.quantity("1Gi"), 1e-3);
        assertEquals(2e9, QuotaLimits.quantity("2G"), 1e-3);
        assertTrue(Double.isNaN(QuotaLimits.quantity("lots")));
        assertEquals(null, QuotaLimits.aboveLimit("exceeded quota: q, requested: cpu=2, used: cpu=7, limited: cpu=8"));
        assertEquals("cpu", QuotaLimits.aboveLimit("exceeded quota: q, requested: cpu=9, used: cpu=0, limited: cpu=8").resource());
    }
}
