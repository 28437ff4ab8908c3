package io.jobmon.sim.scenario;

import io.jobmon.sim.telemetry.GpuLoad;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Scenarios where the platform side fails: host memory, the network, the GPU, the node, the scheduler, the kubelet. */
final class Faults {

    private Faults() {
    }

    /**
     * Dataset preprocessing ({@code datasets.map} with 64 processes) grows host memory up to the container's limit;
     * the kernel's OOM killer kills it (journal lines: {@code invoked oom-killer}, the {@code oom-kill:} summary naming
     * the container's cgroup by the pod's UID and the container's id, {@code Killed process}), the container ends
     * OOMKilled, exit 137. No GPU work yet.
     */
    static Script oom(Run r) {
        Script s = new Script();
        s.step(new Step.HostMemory(8 * Common.GIB)).step(new Step.Cpu(0.9));
        s.after(Duration.ofSeconds(1));
        Torchrun.banner(s, r);
        long limit = r.memoryLimitBytes();
        int total = 1_203_344;
        Duration length = Common.part(r, 0.6);
        Duration every = Common.every(r);
        int n = (int) Math.max(2, length.toSeconds() / Math.max(1, every.toSeconds()));
        double rate = 2200;
        for (int i = 0; i <= n; i++) {
            double elapsed = i * every.toSeconds();
            int done = (int) Math.min(total, elapsed * rate);
            String remaining = done == 0 ? "?" : PyFormat.interval((total - done) / rate);
            String speed = done == 0 ? "? examples/s" : String.format(java.util.Locale.ROOT, "%.2f examples/s", rate + i % 3 * 17.3);
            s.err(String.format(java.util.Locale.ROOT, "Map (num_proc=64): %3.0f%%|%s| %d/%d [%s<%s, %s]", Math.rint(100.0 * done / total),
                    TrainingLog.blocks(done / (double) total), done, total, PyFormat.interval(elapsed), remaining, speed));
            s.step(new Step.HostMemory(8 * Common.GIB + (long) ((limit - 8 * Common.GIB) * (0.55 + 0.45 * i / n))));
            s.after(every);
        }
        s.step(new Step.HostMemory(limit));
        long kb = limit / 1024;
        int pid = Torchrun.FIRST_RANK_PID + 3;
        s.step(new Step.Journal("kernel", null, 0, "kernel", 4,
                "python invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0, oom_score_adj=-997"));
        s.after(Duration.ofMillis(1));
        if (r.memcg() != null) {
            // the one-line summary (mm/oom_kill.c dump_oom_summary, kernel >= 4.19): whose cgroup the kill was in — the
            // container's (its limit was hit), named by the pod's UID and the container's id
            String cpuset = r.memcg().substring(r.memcg().lastIndexOf('/') + 1);
            s.step(new Step.Journal("kernel", null, 0, "kernel", 6, "oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),"
                    + "cpuset=" + cpuset + ",mems_allowed=0-1,oom_memcg=" + r.memcg() + ",task_memcg=" + r.memcg()
                    + ",task=python,pid=" + pid + ",uid=0"));
        }
        s.after(Duration.ofMillis(1));
        s.step(new Step.Journal("kernel", null, 0, "kernel", 3, "Memory cgroup out of memory: Killed process "
                + pid + " (python) total-vm:" + (kb + kb / 20) + "kB, anon-rss:" + (kb - 71_424)
                + "kB, file-rss:71424kB, shmem-rss:0kB, UID:0 pgtables:" + (kb / 512) + "kB oom_score_adj:-997"));
        s.after(Duration.ofMillis(300));
        s.step(new Step.HostMemory(0)).exit(137, "OOMKilled");
        return s;
    }

    /**
     * An InfiniBand completion error on worker 0 (NCCL WARN NET/IB ... status=12 ... vendor err 129), then every rank
     * of every pod waits in the same ALLREDUCE until the NCCL watchdog times out (10 min, or the run time if shorter):
     * watchdog lines, DistBackendError, torchrun's ChildFailedError; exit 1. GPUs at 0 % while they wait.
     */
    static Script ncclTimeout(Run r) {
        Script s = new Script();
        TrainingLog t = Common.start(r, s);
        t.train(Common.part(r, 0.4), Common.every(r), x -> Common.secondsPerStep(r));
        s.after(Duration.ofSeconds(11));
        if (r.rank() == 0) {
            for (int dev : List.of(4, 5)) {
                String who = r.node() + ":" + (3400 + dev) + ":" + (3900 + dev) + " [" + dev + "]";
                s.err(who + " ib_plugin.c:1615 NCCL WARN NET/IB : Got completion from peer 10.66.12.18<5144" + dev
                        + "> with status=12 opcode=0 len=0 vendor err 129 (Recv) localGid fd00:1148:9000:5000:4:200:3:ff22"
                        + " remoteGids fd00:1148:9000:5000:4:200:3:ff1f");
                s.err(who + " NCCL INFO transport/net.cc:1302 -> 6");
            }
        }
        s.load(GpuLoad.stalled(r.trainingMemoryMiB())).step(new Step.Network(0));
        Duration timeout = r.runTime().compareTo(Duration.ofMinutes(10)) < 0 ? r.runTime() : Duration.ofMinutes(10);
        s.after(timeout);
        var at = r.timeAt(s.cursor());
        long ms = timeout.toMillis();
        List<String> lines = new ArrayList<>();
        for (int local = 0; local < r.localRanks(); local++) {
            int rank = r.rank() * r.localRanks() + local;
            String prefix = "[rank" + rank + "]:[" + PyFormat.c10('E', at.plusMillis(3L * local)) + " ";
            lines.add(prefix + "ProcessGroupNCCL.cpp:607] [Rank " + rank + "] Watchdog caught collective operation timeout: "
                    + "WorkNCCL(SeqNum=21873, OpType=ALLREDUCE, NumelIn=262668288, NumelOut=262668288, Timeout(ms)=" + ms
                    + ") ran for " + (ms + 18 + local * 7) + " milliseconds before timing out.");
            lines.add("[rank" + rank + "]:[" + PyFormat.c10('E', at.plusMillis(3L * local + 50)) + " "
                    + "ProcessGroupNCCL.cpp:1664] [PG 0 (default_pg) Rank " + rank + "] Exception (either an "
                    + "error or timeout) detected by watchdog at work: 21873, last enqueued NCCL work: 21874, last "
                    + "completed NCCL work: 21872.");
        }
        int last = r.rank() * r.localRanks();
        lines.addAll(List.of(
                "[rank" + last + "]:[" + PyFormat.c10('E', at.plusSeconds(1)) + " ProcessGroupNCCL.cpp:621] [Rank " + last + "] Some NCCL operations "
                        + "have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU "
                        + "operations might run on corrupted/incomplete data.",
                "[rank" + last + "]:[" + PyFormat.c10('E', at.plusSeconds(1)) + " ProcessGroupNCCL.cpp:627] [Rank " + last + "] To avoid data "
                        + "inconsistency, we are taking the entire process down.",
                "terminate called after throwing an instance of 'c10::DistBackendError'",
                "  what():  [PG 0 (default_pg) Rank " + last + "] Process group watchdog thread terminated with exception: [Rank "
                        + last + "] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=21873, OpType=ALLREDUCE, "
                        + "NumelIn=262668288, NumelOut=262668288, Timeout(ms)=" + ms + ") ran for " + (ms + 18)
                        + " milliseconds before timing out.",
                "Exception raised from checkTimeout at ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:609 (most recent call first):"));
        s.errLines(lines);
        s.after(Duration.ofSeconds(11));
        s.load(GpuLoad.IDLE);
        Torchrun.childFailed(s, r, "train.py", 0, -6);
        s.after(Duration.ofSeconds(1)).exit(1, "Error");
        return s;
    }

    /**
     * The pod's last GPU falls off the bus: kernel {@code NVRM: Xid (PCI:...): 79 ... GPU has fallen off the bus.},
     * the device plugin marks it unhealthy (the node's allocatable nvidia.com/gpu drops by one), dcgm-exporter's
     * XID_ERRORS shows 79, the rank dies with a CUDA error; exit 1.
     */
    static Script xid79(Run r) {
        return gpuFault(r, 79, false, List.of(
                "RuntimeError: CUDA error: unspecified launch failure"),
                (pci, pid) -> List.of(
                        new Step.Journal("kernel", null, 0, "kernel", 3,
                                "NVRM: Xid (PCI:" + pci + "): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus."),
                        new Step.Journal("kernel", null, 0, "kernel", 3,
                                "NVRM: GPU " + pci.toLowerCase() + ".0: GPU has fallen off the bus.")));
    }

    /**
     * An uncorrectable double-bit ECC error on the pod's last GPU: kernel Xid 48 (DBE) and Xid 63 (row remapping),
     * the device plugin marks it unhealthy, DCGM_FI_DEV_ECC_DBE_VOL_TOTAL goes up, XID_ERRORS shows 48, the user
     * sees {@code CUDA error: uncorrectable ECC error encountered}; exit 1.
     */
    static Script ecc(Run r) {
        return gpuFault(r, 48, true, List.of(
                "RuntimeError: CUDA error: uncorrectable ECC error encountered"),
                (pci, pid) -> List.of(
                        new Step.Journal("kernel", null, 0, "kernel", 3, "NVRM: Xid (PCI:" + pci + "): 48, pid=" + pid
                                + ", name=python, An uncorrectable double bit error (DBE) has been detected on GPU in the "
                                + "framebuffer at partition 6, subpartition 0."),
                        new Step.Journal("kernel", null, 0, "kernel", 3, "NVRM: Xid (PCI:" + pci + "): 63, pid='<unknown>', "
                                + "name=<unknown>, Row Remapper: New row (0x00000003c1a0e800) marked for remapping, reset gpu to activate.")));
    }

    private interface KernelLines {
        List<Step.Journal> of(String pci, int pid);
    }

    private static Script gpuFault(Run r, int xid, boolean dbe, List<String> error, KernelLines kernel) {
        Script s = new Script();
        TrainingLog t = Common.start(r, s);
        t.train(Common.part(r, 0.4), Common.every(r), x -> Common.secondsPerStep(r));
        s.after(Duration.ofSeconds(25));
        int gpu = r.localRanks() - 1;
        int device = r.gpus().isEmpty() ? 0 : r.gpus().get(gpu);
        String pci = "0000:" + PCI[device % PCI.length] + ":00";
        for (Step.Journal j : kernel.of(pci, Torchrun.FIRST_RANK_PID + gpu)) {
            s.step(j);
            s.after(Duration.ofMillis(100));
        }
        s.step(new Step.GpuFault(gpu, xid, dbe, true));
        s.after(Duration.ofMillis(400));
        s.step(new Step.DevicePluginLog("XidCriticalError: Xid=" + xid + " on Device=%UUID%; marking device as unhealthy."));
        s.load(GpuLoad.stalled(r.trainingMemoryMiB()));
        s.after(Duration.ofMillis(500));
        List<String> tb = new ArrayList<>(Common.trainerFrames("/workspace/train.py"));
        tb.addAll(List.of(
                "  File \"/usr/local/lib/python3.10/dist-packages/torch/nn/modules/module.py\", line 1553, in _wrapped_call_impl",
                "    return self._call_impl(*args, **kwargs)"));
        tb.addAll(error);
        tb.addAll(List.of(
                "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.",
                "For debugging consider passing CUDA_LAUNCH_BLOCKING=1",
                "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions."));
        s.errLines(Torchrun.rankLines(r.rank() * r.localRanks() + gpu, tb));
        s.after(Duration.ofSeconds(1));
        s.load(GpuLoad.IDLE);
        Torchrun.childFailed(s, r, "/workspace/train.py", gpu, 1);
        s.after(Duration.ofSeconds(1)).exit(1, "Error");
        return s;
    }

    /** PCI bus numbers of an 8-GPU HGX board, as the sim's GPUs have them. */
    private static final String[] PCI = {"07", "0B", "48", "4C", "88", "8B", "C9", "CB", "0F", "13", "50", "54", "90", "93", "D0", "D3"};

    /**
     * The node of the job's last pod stops answering mid-run (its kubelet, exporters and log shipper go quiet). The
     * node controller marks it NotReady, the pod's Ready goes False ("Node is not ready"), after the 300 s
     * toleration the taint manager deletes it ({@code TaintManagerEviction}); the Job fails. The other pods stall.
     * The node comes back ten minutes later.
     */
    static Script nodeLost(Run r) {
        Script s = new Script();
        TrainingLog t = Common.start(r, s);
        t.train(Common.part(r, 0.4), Common.every(r), x -> Common.secondsPerStep(r));
        s.after(Duration.ofSeconds(13));
        if (r.rank() == r.replicas() - 1) {
            s.step(new Step.LoseNode());
        } else {
            s.after(Duration.ofSeconds(5));
            s.load(GpuLoad.stalled(r.trainingMemoryMiB())).step(new Step.Network(0));
        }
        return s;
    }

    /**
     * Checkpoints written to /tmp inside the container fill the node's root disk; the kubelet's eviction manager
     * evicts the pod (EvictionThresholdMet, NodeHasDiskPressure, Evicted with the kubelet's message, Killing); the
     * pod fails with reason Evicted.
     */
    static Script evicted(Run r) {
        Script s = new Script();
        TrainingLog t = Common.start(r, s);
        Duration quarter = Common.part(r, 0.15);
        for (int i = 0; i < 4; i++) {
            t.train(quarter, Common.every(r), x -> Common.secondsPerStep(r)).checkpoint("/tmp/output");
            s.step(new Step.DiskWrite(760L * Common.GIB));
        }
        s.after(Duration.ofSeconds(20));
        s.step(new Step.EvictForDisk());
        return s;
    }

    /**
     * Mid-run a higher-priority serving pod needs this node's GPUs: the scheduler preempts this pod
     * ({@code DisruptionTarget}/{@code PreemptionByScheduler}, {@code Preempted} event), the kubelet stops it
     * ({@code Killing}, torchrun's SIGTERM lines, exit 143), the serving pod is scheduled on the node.
     */
    static Script preempted(Run r) {
        Script s = new Script();
        TrainingLog t = Common.start(r, s);
        t.train(Common.part(r, 0.4), Common.every(r), x -> Common.secondsPerStep(r));
        s.after(Duration.ofSeconds(8));
        if (r.rank() == 0) {
            s.step(new Step.HigherPriorityPod());
        }
        return s;
    }
}
