package io.jobmon.logs.attribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Each attribution rule on real line forms: the kernel's OOM-killer block (mm/oom_kill.c {@code dump_header},
 * {@code dump_oom_summary}, {@code __oom_kill_process}, {@code oom_reap_task_mm}; mm/memcontrol.c
 * {@code mem_cgroup_print_oom_info}) in its cgroup v1 (kernel 4.x, cgroupfs driver) and v2 (kernel 5.15, systemd
 * driver) forms, the NVIDIA driver's {@code NVRM: Xid (PCI:dddd:bb:dd): N, pid=…} lines, the k8s-device-plugin's
 * {@code XidCriticalError: Xid=%d on Device=%s; marking device as unhealthy.} (internal/rm/health.go), kubelet klog
 * lines with {@code pod="ns/name" podUID=…}, containerd's CRI lines; and the same lines of another pod refused.
 */
class SystemLineAttributionTest {

    static final String NODE = "gpu-node-1";
    static final long T0 = 1_764_800_000_000_000_000L;
    static final long MS = 1_000_000L;

    static final String UID_A = "5a5e5b0f-1c2d-4e3f-8a9b-0c1d2e3f4a5b";
    static final String CID_A = "3f1c0e9d8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e";
    static final String UID_B = "9b8a7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d";
    static final String CID_B = "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90";
    static final String GPU_A = "GPU-8f0c2b5e-3d1a-4c7b-9e6f-2a1b0c9d8e7f";
    static final String GPU_B = "GPU-11223344-5566-7788-99aa-bbccddeeff00";

    static final JobIdentity A = new JobIdentity(
            List.of(new JobIdentity.Pod("ml", "train-a-0", Set.of(UID_A), Set.of(CID_A))),
            List.of(new JobIdentity.Holding(NODE, "3", GPU_A, PciBusId.normal("00000000:CB:00.0"), "ml", "train-a-0", T0,
                    Long.MAX_VALUE)));

    /** A cgroup v2 OOM block, systemd cgroup driver (kernel 5.15), of the pod with this UID and container id. */
    static List<String> oomBlockV2(String uid, String cid, int pid) {
        String slice = "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" + uid.replace('-', '_') + ".slice";
        return List.of(
                "python invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0, oom_score_adj=-997",
                "CPU: 12 PID: " + pid + " Comm: python Not tainted 5.15.0-119-generic #129-Ubuntu",
                "Call Trace:",
                " dump_stack_lvl+0x4a/0x63",
                "memory: usage 16777216kB, limit 16777216kB, failcnt 1234",
                "Memory cgroup stats for " + slice + ":",
                "Tasks state (memory values in pages):",
                "[  pid  ]   uid  tgid total_vm      rss pgtables_bytes swapents oom_score_adj name",
                "[" + String.format("%7d", pid) + "]     0  " + pid + "  4419871  4173050 33763328        0          -997 python",
                "oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=cri-containerd-" + cid + ".scope,mems_allowed=0-1,"
                        + "oom_memcg=" + slice + ",task_memcg=" + slice + "/cri-containerd-" + cid + ".scope,task=python,pid="
                        + pid + ",uid=0",
                "Memory cgroup out of memory: Killed process " + pid + " (python) total-vm:17679484kB, anon-rss:16692200kB,"
                        + " file-rss:71424kB, shmem-rss:0kB, UID:0 pgtables:32972kB oom_score_adj:-997");
    }

    /** A cgroup v1 OOM block, cgroupfs driver (kernel 4.15: no one-line summary yet; "Kill process … or sacrifice child"). */
    static List<String> oomBlockV1(String uid, String cid, int pid) {
        String pod = "/kubepods/burstable/pod" + uid;
        return List.of(
                "python invoked oom-killer: gfp_mask=0x14000c0(GFP_KERNEL), nodemask=(null), order=0, oom_score_adj=999",
                "CPU: 3 PID: " + pid + " Comm: python Not tainted 4.15.0-213-generic #224-Ubuntu",
                "Task in " + pod + "/" + cid + " killed as a result of limit of " + pod,
                "memory: usage 4194304kB, limit 4194304kB, failcnt 52",
                "Memory cgroup stats for " + pod + ": cache:0KB rss:0KB rss_huge:0KB shmem:0KB mapped_file:0KB",
                "Memory cgroup stats for " + pod + "/" + cid + ": cache:12KB rss:4194292KB rss_huge:2097152KB",
                "[ pid ]   uid  tgid total_vm      rss pgtables_bytes swapents oom_score_adj name",
                "Memory cgroup out of memory: Kill process " + pid + " (python) score 1998 or sacrifice child",
                "Killed process " + pid + " (python) total-vm:5017044kB, anon-rss:4183732kB, file-rss:10560kB, shmem-rss:0kB");
    }

    record L(long time, String text) {
    }

    /** The block's lines, a millisecond apart from {@code start}. */
    static List<L> at(long start, List<String> lines) {
        List<L> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            out.add(new L(start + i * MS, lines.get(i)));
        }
        return out;
    }

    /** The view a read builds: its OOM events from the kernel lines its keyword search finds (not every line). */
    static SystemLineAttribution attribution(List<L> kernel) {
        OomEvents oom = OomEvents.of(kernel.stream().filter(l -> OomEvents.KEYWORDS.stream().anyMatch(l.text()::contains))
                .map(l -> new OomEvents.Line(NODE, l.time(), l.text())).toList());
        return new SystemLineAttribution(A, oom, 30_000 * MS);
    }

    @Test
    void aCgroupV2OomBlockOfTheJobsPodIsTheJobsLineByLineAndTheReaperLineToo() {
        List<L> block = at(T0 + 1000 * MS, oomBlockV2(UID_A, CID_A, 67));
        List<L> all = new ArrayList<>(block);
        L reaper = new L(T0 + 1200 * MS, "oom_reaper: reaped process 67 (python), now anon-rss:0kB, file-rss:0kB, shmem-rss:0kB");
        all.add(reaper);
        SystemLineAttribution a = attribution(all);
        for (L l : all) {
            assertEquals(new Attribution("pod", "train-a-0", null), a.attribute(NODE, "kernel", l.time(), l.text()), l.text());
        }
        // the same block on another node is not in any event there
        assertNull(a.attribute("gpu-node-2", "kernel", block.get(0).time(), block.get(0).text()));
    }

    @Test
    void anotherPodsOomBlockIsRefusedLineByLineThoughItKilledAPythonToo() {
        List<L> theirs = at(T0 + 5000 * MS, oomBlockV2(UID_B, CID_B, 67));
        List<L> all = new ArrayList<>(theirs);
        all.add(new L(T0 + 5300 * MS, "oom_reaper: reaped process 67 (python), now anon-rss:0kB, file-rss:0kB, shmem-rss:0kB"));
        SystemLineAttribution a = attribution(all);
        for (L l : all) {
            assertNull(a.attribute(NODE, "kernel", l.time(), l.text()), l.text());
        }
    }

    @Test
    void aCgroupV1OomBlockIsAttributedByItsTaskInLineAndBlocksOfTwoPodsStayApart() {
        List<L> ours = at(T0 + 1000 * MS, oomBlockV1(UID_A, CID_A, 4242));
        List<L> theirs = at(T0 + 9000 * MS, oomBlockV1(UID_B, CID_B, 4343));
        List<L> all = new ArrayList<>(ours);
        all.addAll(theirs);
        SystemLineAttribution a = attribution(all);
        for (L l : ours) {
            assertEquals(new Attribution("pod", "train-a-0", null), a.attribute(NODE, "kernel", l.time(), l.text()), l.text());
        }
        for (L l : theirs) {
            assertNull(a.attribute(NODE, "kernel", l.time(), l.text()), l.text());
        }
    }

    @Test
    void anOomOfNoPodAGlobalOneOfASystemUnitIsNoJobs() {
        List<L> block = at(T0, List.of("systemd-journal invoked oom-killer: gfp_mask=0x140cca(GFP_HIGHUSER_MOVABLE|__GFP_COMP), order=0, oom_score_adj=0",
                "oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0,global_oom,task_memcg=/system.slice/systemd-journald.service,task=systemd-journal,pid=412,uid=0",
                "Out of memory: Killed process 412 (systemd-journal) total-vm:81236kB, anon-rss:1024kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:200kB oom_score_adj:0"));
        SystemLineAttribution a = attribution(block);
        for (L l : block) {
            assertNull(a.attribute(NODE, "kernel", l.time(), l.text()), l.text());
        }
    }

    @Test
    void xidLinesAreTheJobsByTheBusIdOfAGpuItHeldInEitherFormAndOnlyWhileItHeldIt() {
        SystemLineAttribution a = attribution(List.of());
        Attribution gpu = new Attribution("gpu", "train-a-0", GPU_A);
        assertEquals(gpu, a.attribute(NODE, "kernel", T0 + 60_000 * MS,
                "NVRM: Xid (PCI:0000:cb:00): 79, pid=1234, name=python, GPU has fallen off the bus."));
        assertEquals(gpu, a.attribute(NODE, "kernel", T0 + 60_000 * MS,
                "NVRM: Xid (PCI:0000:cb:00): 48, pid=1234, name=python, An uncorrectable double bit error (DBE) has been detected on GPU in the framebuffer at partition 6, subpartition 0."));
        assertEquals(gpu, a.attribute(NODE, "kernel", T0 + 60_000 * MS,
                "NVRM: GPU at PCI:0000:cb:00: " + GPU_A));
        assertEquals(gpu, a.attribute(NODE, "kernel", T0 + 60_000 * MS,
                "nvidia 0000:CB:00.0: enabling device (0000 -> 0003)"));
        // another GPU of the node (another job's), and the job's GPU long before the job held it
        assertNull(a.attribute(NODE, "kernel", T0 + 60_000 * MS,
                "NVRM: Xid (PCI:0000:3b:00): 79, pid=999, name=python, GPU has fallen off the bus."));
        assertNull(a.attribute(NODE, "kernel", T0 - 3_600_000 * MS,
                "NVRM: Xid (PCI:0000:cb:00): 79, pid=1234, name=python, GPU has fallen off the bus."));
        // the same bus id on another node is another GPU
        assertNull(a.attribute("gpu-node-2", "kernel", T0 + 60_000 * MS,
                "NVRM: Xid (PCI:0000:cb:00): 79, pid=1234, name=python, GPU has fallen off the bus."));
        assertNull(a.attribute(NODE, "kernel", T0 + 60_000 * MS,
                "NVRM: Xid (PCI:0000:3b:00): 63, pid='<unknown>', name=<unknown>, Row Remapper: New row marked for remapping, reset gpu to activate."));
    }

    @Test
    void devicePluginLinesAreTheJobsByTheGpuUuidItHeld() {
        SystemLineAttribution a = attribution(List.of());
        assertEquals(new Attribution("gpu", "train-a-0", GPU_A), a.attribute(NODE, "nvidia-device-plugin", T0 + 60_000 * MS,
                "XidCriticalError: Xid=79 on Device=" + GPU_A + "; marking device as unhealthy."));
        assertEquals(new Attribution("gpu", "train-a-0", GPU_A), a.attribute(NODE, "nvidia-device-plugin", T0 + 60_000 * MS,
                "'nvidia.com/gpu' device marked unhealthy: " + GPU_A));
        assertNull(a.attribute(NODE, "nvidia-device-plugin", T0 + 60_000 * MS,
                "XidCriticalError: Xid=79 on Device=" + GPU_B + "; marking device as unhealthy."));
    }

    @Test
    void kubeletAndContainerdLinesAreTheJobsByPodNameUidOrContainerIdAndAnotherPodsAreRefused() {
        SystemLineAttribution a = attribution(List.of());
        Attribution pod = new Attribution("pod", "train-a-0", null);
        assertEquals(pod, a.attribute(NODE, "kubelet", T0, "\"Killing container with a grace period\" pod=\"ml/train-a-0\" podUID=\""
                + UID_A + "\" containerName=\"trainer\" containerID=\"containerd://" + CID_A + "\" gracePeriod=30"));
        assertEquals(pod, a.attribute(NODE, "kubelet", T0, "\"SyncLoop (PLEG): event for pod\" pod=\"ml/train-a-0\" event={\"ID\":\""
                + UID_A + "\",\"Type\":\"ContainerDied\",\"Data\":\"" + CID_A + "\"}"));
        assertEquals(pod, a.attribute(NODE, "kubelet", T0, "\"SyncLoop ADD\" source=\"api\" pods=[\"ml/train-a-0\"]"));
        assertEquals(pod, a.attribute(NODE, "containerd", T0, "StopContainer for \"" + CID_A + "\" with timeout 30 (s)"));
        assertEquals(pod, a.attribute(NODE, "containerd", T0, "RunPodSandbox for &PodSandboxMetadata{Name:train-a-0,Uid:" + UID_A
                + ",Namespace:ml,Attempt:0,}"));
        // another pod: by name, UID, container id — even when its name starts with ours
        assertNull(a.attribute(NODE, "kubelet", T0, "\"SyncLoop ADD\" source=\"api\" pods=[\"ml/train-a-0-eval\"]"));
        assertNull(a.attribute(NODE, "kubelet", T0, "\"Killing container with a grace period\" pod=\"ml/train-b-0\" podUID=\""
                + UID_B + "\" containerName=\"trainer\" containerID=\"containerd://" + CID_B + "\" gracePeriod=30"));
        assertNull(a.attribute(NODE, "containerd", T0, "StopContainer for \"" + CID_B + "\" with timeout 30 (s)"));
        assertNull(a.attribute(NODE, "kubelet", T0, "\"SyncLoop ADD\" source=\"api\" pods=[\"other/train-a-0\"]"));
        // an eviction of another pod is about that pod, not the node
        assertNull(a.attribute(NODE, "kubelet", T0, "\"Eviction manager: pods ranked for eviction\" pods=[\"ml/train-b-0\"]"));
        // naming nothing: not in the job's logs
        assertNull(a.attribute(NODE, "kubelet", T0, "\"Starting to sync pod status with apiserver\""));
        assertNull(a.attribute(NODE, "containerd", T0, "loading plugin \"io.containerd.grpc.v1.cri\"..."));
    }

    @Test
    void nodeWideConditionsAreEveryJobsOnTheNode() {
        SystemLineAttribution a = attribution(List.of());
        for (String line : List.of(
                "\"Node became not ready\" node=\"gpu-node-1\" condition={\"type\":\"Ready\",\"status\":\"False\",\"reason\":\"KubeletNotReady\",\"message\":\"container runtime network not ready\"}",
                "\"Recording event message for node\" node=\"gpu-node-1\" event=\"NodeHasDiskPressure\"",
                "\"Eviction manager: attempting to reclaim\" resourceName=\"memory\"",
                "mlx5_core 0000:5e:00.0 enp94s0f0: Link down",
                "ib0: ib_query_port failed, port 1 link down",
                "NVRM: API mismatch: the client has the version 535.104.05, but this kernel module has the version 535.54.03.",
                "Failed to initialize NVML: Driver/library version mismatch",
                "watchdog: BUG: soft lockup - CPU#7 stuck for 22s! [python:4242]",
                "mce: [Hardware Error]: Machine check events logged")) {
            assertEquals(new Attribution("node", null, null), a.attribute(NODE, "kernel", T0, line), line);
        }
    }

    @Test
    void busIdsNormaliseFromEveryForm() {
        assertEquals("0000:cb:00.0", PciBusId.normal("00000000:CB:00.0"));
        assertEquals("0000:cb:00.0", PciBusId.normal("PCI:0000:cb:00"));
        assertEquals("0000:cb:00.0", PciBusId.normal("0000:cb:00.0"));
        assertEquals("0001:07:00.1", PciBusId.normal("00000001:07:00.1"));
        assertNull(PciBusId.normal("12:30:45"));
    }
}
