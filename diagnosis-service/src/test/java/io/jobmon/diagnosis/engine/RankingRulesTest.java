package io.jobmon.diagnosis.engine;

import static io.jobmon.diagnosis.engine.BundleBuilder.repeat;
import static io.jobmon.diagnosis.engine.BundleBuilder.steady;
import static io.jobmon.diagnosis.engine.BundleBuilder.tqdm;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Root cause over symptom, time order and job state. */
class RankingRulesTest {

    private static final DiagnosisEngine ENGINE = new DiagnosisEngine();

    private static final String WATCHDOG = "[rank%d]:[E813 10:%s ProcessGroupNCCL.cpp:607] [Rank %d] Watchdog caught "
            + "collective operation timeout: WorkNCCL(SeqNum=901, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, "
            + "Timeout(ms)=600000) ran for 600031 milliseconds before timing out.";

    private static String watchdog(int rank, String time) {
        return String.format(WATCHDOG, rank, time, rank);
    }

    @Test
    void nodeFailureBeatsTheOomKilledAndNcclTimeoutsItCauses() {
        EvidenceBundle b = BundleBuilder.job("FAILED").jobTime("finishedAt", "2026-07-13T10:12:00Z")
                .pod("w-0", "gpu-n1", "Failed", "terminated", "OOMKilled", 137, 0)
                .pod("w-1", "gpu-n2", "Failed", "terminated", "Error", 1, 0)
                .event("2026-07-13T10:00:00Z", "Normal", "NodeNotReady", "Node/gpu-n1", "Node gpu-n1 status is now: NodeNotReady")
                .event("2026-07-13T10:00:02Z", "Warning", "NodeNotReady", "Pod/w-0", "Node is not ready")
                .log("2026-07-13T10:10:40Z", "w-1", watchdog(8, "10:40.1"))
                .build();
        Diagnosis d = ENGINE.analyze(b);
        assertEquals(Category.NODE_FAILURE, d.category(), d::summary);
        assertEquals(Action.RESTART, d.action());
        assertTrue(d.related().contains(Category.CONTAINER_OOM) || d.related().contains(Category.NCCL_COMMUNICATION_ERROR),
                d.related()::toString);
    }

    @Test
    void gpuXidOnOneRankBeatsNcclTimeoutsOnAllTheOthers() {
        BundleBuilder b = BundleBuilder.job("FAILED").jobTime("finishedAt", "2026-07-13T10:12:00Z");
        for (int i = 0; i < 4; i++) {
            b.pod("w-" + i, "gpu-n" + i, "Failed", "terminated", "Error", 1, 0);
        }
        b.log("2026-07-13T10:00:00Z", "w-2", "system",
                "kernel: NVRM: Xid (PCI:0000:3b:00): 79, pid=4242, name=python, GPU has fallen off the bus.");
        b.log("2026-07-13T10:00:01Z", "w-2", "RuntimeError: CUDA error: unspecified launch failure");
        for (int i : new int[] {0, 1, 3}) {
            b.log("2026-07-13T10:10:0" + i + "Z", "w-" + i, watchdog(i * 8, "10:0" + i));
        }
        Diagnosis d = ENGINE.analyze(b.build());
        assertEquals(Category.GPU_HARDWARE_FAULT, d.category(), d::summary);
        assertEquals(Action.CONTACT_ADMIN, d.action());
        assertTrue(d.evidence().get(0).text().contains("Xid"), d.evidence()::toString);
    }

    @Test
    void cudaOomOnOneRankBeatsTheNcclTimeoutsOfTheOthers() {
        BundleBuilder b = BundleBuilder.job("FAILED").jobTime("finishedAt", "2026-07-13T10:12:00Z")
                .pod("w-0", "n0", "Failed", "terminated", "Error", 1, 0)
                .pod("w-1", "n1", "Failed", "terminated", "Error", 1, 0)
                .log("2026-07-13T10:00:00Z", "w-1", "[rank3]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.00 GiB.")
                .log("2026-07-13T10:10:00Z", "w-0", watchdog(0, "10:00"))
                .log("2026-07-13T10:10:00Z", "w-0", "[rank0]: torch.distributed.DistBackendError: NCCL communicator was aborted on rank 0.");
        Diagnosis d = ENGINE.analyze(b.build());
        assertEquals(Category.GPU_OOM, d.category(), d::summary);
        assertEquals(Action.TERMINATE, d.action());
        assertTrue(d.summary().contains("Tried to allocate 4.00 GiB"), d::summary);
    }

    @Test
    void userErrorOnOneRankBeatsTheLaterWatchdogTimeouts() {
        BundleBuilder b = BundleBuilder.job("FAILED").jobTime("finishedAt", "2026-07-13T10:12:00Z")
                .pod("w-0", "n0", "Failed", "terminated", "Error", 1, 0)
                .log("2026-07-13T10:00:00Z", "w-0", "[rank2]: Traceback (most recent call last):")
                .log("2026-07-13T10:00:00Z", "w-0", "[rank2]:   File \"/app/train.py\", line 10, in <module>")
                .log("2026-07-13T10:00:00Z", "w-0", "[rank2]: KeyError: 'input_ids'")
                .log("2026-07-13T10:10:00Z", "w-0", watchdog(0, "10:00"))
                .log("2026-07-13T10:10:00Z", "w-0", watchdog(1, "10:00"));
        Diagnosis d = ENGINE.analyze(b.build());
        assertEquals(Category.USER_CODE_ERROR, d.category(), d::summary);
        assertEquals(Action.TERMINATE, d.action());
        assertTrue(d.related().contains(Category.NCCL_COMMUNICATION_ERROR));
    }

    @Test
    void onlyWatchdogTimeoutsAreAnNcclError() {
        BundleBuilder b = BundleBuilder.job("FAILED").jobTime("finishedAt", "2026-07-13T10:12:00Z")
                .pod("w-0", "n0", "Failed", "terminated", "Error", 1, 0)
                .log("2026-07-13T10:10:00Z", "w-0", watchdog(0, "10:00"))
                .log("2026-07-13T10:10:00Z", "w-0", watchdog(1, "10:00"));
        Diagnosis d = ENGINE.analyze(b.build());
        assertEquals(Category.NCCL_COMMUNICATION_ERROR, d.category(), d::summary);
        assertEquals(Action.RESTART, d.action());
    }

    @Test
    void resolvedSchedulingWarningIsNotTheCauseOfALaterCrash() {
        BundleBuilder b = BundleBuilder.job("FAILED").jobTime("finishedAt", "2026-07-13T10:01:00Z")
                .pod("w-0", "gpu-n7", "Failed", "terminated", "Error", 1, 0)
                .event("2026-07-13T09:00:00Z", "Warning", "FailedScheduling", "Pod/w-0",
                        "0/8 nodes are available: 8 Insufficient nvidia.com/gpu. preemption: 0/8 nodes are available: 8 No preemption victims found for incoming pod.")
                .event("2026-07-13T09:20:00Z", "Normal", "Scheduled", "Pod/w-0", "Successfully assigned team/w-0 to gpu-n7")
                .event("2026-07-13T09:21:00Z", "Normal", "Started", "Pod/w-0", "Started container trainer")
                .logs("2026-07-13T09:30:00Z", 60, "w-0", tqdm(10, 1000, 10, 60, 60, 20))
                .log("2026-07-13T10:00:00Z", "w-0", "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB.");
        Diagnosis d = ENGINE.analyze(b.build());
        assertEquals(Category.GPU_OOM, d.category(), d::summary);
        assertTrue(d.related().contains(Category.INSUFFICIENT_RESOURCES), d.related()::toString);
    }

    @Test
    void schedulingWarningResolvedByThePodStateAloneLeavesARunningJobHealthy() {
        BundleBuilder b = BundleBuilder.job("RUNNING")
                .pod("w-0", "gpu-n7", "Running", "running", null, null, 0)
                .event("2026-07-13T09:00:00Z", "Warning", "FailedScheduling", "Pod/w-0",
                        "0/8 nodes are available: 8 Insufficient nvidia.com/gpu.")
                .logs("2026-07-13T09:30:00Z", 60, "w-0", tqdm(10, 1000, 10, 60, 60, 25))
                .window("2026-07-13T09:30:00Z", "2026-07-13T09:55:00Z");
        Diagnosis d = ENGINE.analyze(b.build());
        assertEquals(Category.HEALTHY, d.category(), d::summary);
        assertEquals(Action.NONE, d.action());
    }

    @Test
    void failedSchedulingOfAStillPendingJobIsTheCause() {
        BundleBuilder b = BundleBuilder.job("PENDING")
                .pod("w-0", "", "Pending", "waiting", "ContainerCreating", null, 0)
                .event("2026-07-13T09:00:00Z", "Normal", "Scheduled", "Pod/other-pod", "Successfully assigned team/other-pod to n1")
                .event("2026-07-13T09:01:00Z", "Warning", "FailedScheduling", "Pod/w-0",
                        "0/4 nodes are available: 4 Insufficient nvidia.com/gpu.")
                .event("2026-07-13T09:20:00Z", "Warning", "FailedScheduling", "Pod/w-0",
                        "0/4 nodes are available: 4 Insufficient nvidia.com/gpu.");
        Diagnosis d = ENGINE.analyze(b.build());
        assertEquals(Category.INSUFFICIENT_RESOURCES, d.category(), d::summary);
        assertEquals(Action.WAIT, d.action());
    }

    @Test
    void onePodScheduledOneStillPendingIsStillInsufficient() {
        BundleBuilder b = BundleBuilder.job("PARTIALLY_PENDING")
                .pod("w-0", "n1", "Running", "running", null, null, 0)
                .pod("w-1", "", "Pending", "waiting", "ContainerCreating", null, 0)
                .event("2026-07-13T09:00:00Z", "Warning", "FailedScheduling", "Pod/w-1", "0/4 nodes are available: 4 Insufficient nvidia.com/gpu.")
                .event("2026-07-13T09:05:00Z", "Warning", "FailedScheduling", "Pod/w-0", "0/4 nodes are available: 4 Insufficient nvidia.com/gpu.")
                .event("2026-07-13T09:06:00Z", "Normal", "Scheduled", "Pod/w-0", "Successfully assigned team/w-0 to n1");
        Diagnosis d = ENGINE.analyze(b.build());
        assertEquals(Category.INSUFFICIENT_RESOURCES, d.category(), d::summary);
    }

    @Test
    void aSucceededJobIsNotFailedWhateverItsLogsSay() {
        BundleBuilder b = BundleBuilder.job("SUCCEEDED").jobTime("finishedAt", "2026-07-13T10:30:00Z")
                .pod("w-0", "n1", "Succeeded", "terminated", "Completed", 0, 0)
                .log("2026-07-13T10:00:00Z", "w-0", "RuntimeError: CUDA error: out of memory")
                .logs("2026-07-13T10:01:00Z", 60, "w-0", tqdm(10, 300, 10, 60, 60, 28));
        Diagnosis d = ENGINE.analyze(b.build());
        assertEquals(Category.HEALTHY, d.category(), d::summary);
        assertEquals(Action.NONE, d.action());
    }

    @Test
    void aTransientErrorFollowedByProgressIsNotTheCause() {
        BundleBuilder b = BundleBuilder.job("RUNNING")
                .pod("w-0", "n1", "Running", "running", null, null, 0)
                .log("2026-07-13T10:00:00Z", "w-0", "NCCL WARN NET/IB : Got completion from peer 10.0.0.2<1234> with status=12 opcode=0")
                .log("2026-07-13T10:00:01Z", "w-0", "FileNotFoundError: [Errno 2] No such file or directory: '/data/optional.yaml'")
                .logs("2026-07-13T10:01:00Z", 60, "w-0", tqdm(100, 10000, 60, 60, 60, 25))
                .window("2026-07-13T10:00:00Z", "2026-07-13T10:26:00Z");
        Diagnosis d = ENGINE.analyze(b.build());
        assertEquals(Category.HEALTHY, d.category(), d::summary);
        assertEquals(Action.NONE, d.action());
    }

    @Test
    void anEarlyRecoveredErrorDoesNotHideTheRealCrash() {
        BundleBuilder b = BundleBuilder.job("FAILED").jobTime("finishedAt", "2026-07-13T11:00:30Z")
                .pod("w-0", "n1", "Failed", "terminated", "Error", 1, 0)
                .log("2026-07-13T10:00:00Z", "w-0", "FileNotFoundError: [Errno 2] No such file or directory: '/data/optional.yaml'")
                .logs("2026-07-13T10:01:00Z", 60, "w-0", tqdm(100, 10000, 60, 60, 60, 50))
                .log("2026-07-13T11:00:00Z", "w-0", "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 512.00 MiB.");
        Diagnosis d = ENGINE.analyze(b.build());
        assertEquals(Category.GPU_OOM, d.category(), d::summary);
    }

    @Test
    void aNodeProblemLongAfterTheCrashDidNotCauseIt() {
        BundleBuilder b = BundleBuilder.job("FAILED").jobTime("finishedAt", "2026-07-13T10:01:00Z")
                .pod("w-0", "n1", "Failed", "terminated", "Error", 1, 0)
                .log("2026-07-13T10:00:00Z", "w-0", "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 512.00 MiB.")
                .event("2026-07-13T10:40:00Z", "Normal", "NodeNotReady", "Node/n1", "Node n1 status is now: NodeNotReady");
        Diagnosis d = ENGINE.analyze(b.build());
        assertEquals(Category.GPU_OOM, d.category(), d::summary);
    }

    @Test
    void preemptionExplainsTheSigterm() {
        BundleBuilder b = BundleBuilder.job("FAILED").jobTime("finishedAt", "2026-07-13T10:01:00Z")
                .pod("w-0", "n1", "Failed", "terminated", "Error", 143, 0)
                .event("2026-07-13T10:00:00Z", "Warning", "Preempted", "Pod/w-0", "Preempted by pod 6a1f0c on node n1")
                .log("2026-07-13T10:00:01Z", "w-0", "torch.distributed.elastic.multiprocessing.api.SignalException: Process 1 got signal: 15");
        Diagnosis d = ENGINE.analyze(b.build());
        assertEquals(Category.PREEMPTED, d.category(), d::summary);
        assertEquals(Action.RESTART, d.action());
    }

    @Test
    void anUnexplainedSigtermIsUnknown() {
        BundleBuilder b = BundleBuilder.job("FAILED").jobTime("finishedAt", "2026-07-13T10:01:00Z")
                .pod("w-0", "n1", "Failed", "terminated", "Error", 143, 0)
                .logs("2026-07-13T09:40:00Z", 60, "w-0", tqdm(100, 10000, 60, 60, 60, 19))
                .log("2026-07-13T10:00:01Z", "w-0", "torch.distributed.elastic.multiprocessing.api.SignalException: Process 1 got signal: 15");
        Diagnosis d = ENGINE.analyze(b.build());
        assertEquals(Category.UNKNOWN, d.category(), d::summary);
        assertEquals(Action.CONTACT_ADMIN, d.action());
    }

    @Test
    void memoryPressureEvictionBeatsTheExit137() {
        BundleBuilder b = BundleBuilder.job("FAILED").jobTime("finishedAt", "2026-07-13T10:01:00Z")
                .pod("w-0", "n1", "Failed", "terminated", "ContainerStatusUnknown", 137, 0)
                .event("2026-07-13T10:00:00Z", "Warning", "Evicted", "Pod/w-0",
                        "The node was low on resource: memory. Threshold quantity: 100Mi, available: 51200Ki. Container trainer was using 230Gi, request is 64Gi, has larger consumption of memory.");
        Diagnosis d = ENGINE.analyze(b.build());
        assertEquals(Category.EVICTED, d.category(), d::summary);
        assertEquals(Action.RESTART, d.action());
    }

    @Test
    void nodeSilentInMetricsWhileTheOthersIdleIsANodeFailure() {
        String start = "2026-07-13T10:00:00Z";
        BundleBuilder b = BundleBuilder.job("RUNNING")
                .pod("w-0", "n0", "Running", "running", null, null, 0)
                .pod("w-1", "n1", "Running", "running", null, null, 0)
                .logs(start, 60, "w-0", tqdm(100, 10000, 60, 60, 60, 10))
                .metric("DCGM_FI_DEV_GPU_UTIL", "n0", "0", "w-0", start, BundleBuilder.concat(steady(95, 2, 40), repeat(0, 60)))
                .metric("DCGM_FI_DEV_GPU_UTIL", "n1", "0", "w-1", start, steady(95, 2, 40))
                .window(start, "2026-07-13T10:25:00Z");
        Diagnosis d = ENGINE.analyze(b.build());
        assertEquals(Category.NODE_FAILURE, d.category(), d::summary);
        assertNotEquals(Action.NONE, d.action());
    }

    @Test
    void aCrashThatComesBackAfterEachRestartIsNotTransient() {
        BundleBuilder b = BundleBuilder.job("RUNNING")
                .pod("w-0", "n1", "Running", "running", null, null, 2)
                .logs("2026-07-13T10:00:00Z", 60, "w-0", tqdm(10, 1000, 10, 60, 60, 5))
                .log("2026-07-13T10:05:30Z", "w-0", "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 8.00 GiB.")
                .logs("2026-07-13T10:07:00Z", 60, "w-0", tqdm(10, 1000, 10, 60, 60, 5))
                .log("2026-07-13T10:12:30Z", "w-0", "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 8.00 GiB.")
                .logs("2026-07-13T10:14:00Z", 60, "w-0", tqdm(10, 1000, 10, 60, 60, 4))
                .window("2026-07-13T10:00:00Z", "2026-07-13T10:18:00Z");
        Diagnosis d = ENGINE.analyze(b.build());
        assertEquals(Category.GPU_OOM, d.category(), d::summary);
        assertEquals(Action.TERMINATE, d.action());
    }

    @Test
    void aPendingJobIsBlockedBySchedulingEvenAfterAPreemption() {
        BundleBuilder b = BundleBuilder.job("PENDING")
                .pod("w-0", "", "Pending", "waiting", "ContainerCreating", null, 0)
                .event("2026-07-13T09:00:00Z", "Normal", "Preempted", "Pod/w-0", "Preempted by pod 77aa on node n1")
                .event("2026-07-13T09:01:00Z", "Warning", "FailedScheduling", "Pod/w-0", "0/4 nodes are available: 4 Insufficient nvidia.com/gpu.");
        Diagnosis d = ENGINE.analyze(b.build());
        assertEquals(Category.INSUFFICIENT_RESOURCES, d.category(), d::summary);
        assertEquals(Action.WAIT, d.action());
        assertTrue(d.related().contains(Category.PREEMPTED));
    }

    @Test
    void nodeSilentInMetricsWhileTheOthersSpinInACollectiveIsANodeFailure() {
        String start = "2026-07-13T10:00:00Z";
        BundleBuilder b = BundleBuilder.job("RUNNING")
                .pod("w-0", "n0", "Running", "running", null, null, 0)
                .pod("w-1", "n1", "Running", "running", null, null, 0)
                .logs(start, 60, "w-0", tqdm(100, 10000, 60, 60, 60, 10))
                .metric("DCGM_FI_DEV_GPU_UTIL", "n0", "0", "w-0", start, BundleBuilder.concat(steady(90, 5, 40), repeat(100, 60)))
                .metric("DCGM_FI_DEV_GPU_UTIL", "n1", "0", "w-1", start, steady(90, 5, 40))
                .window(start, "2026-07-13T10:25:00Z");
        Diagnosis d = ENGINE.analyze(b.build());
        assertEquals(Category.NODE_FAILURE, d.category(), d::summary);
    }
}
