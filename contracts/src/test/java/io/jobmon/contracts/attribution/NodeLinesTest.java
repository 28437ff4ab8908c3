package io.jobmon.contracts.attribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The forms the kernel, the NVIDIA driver and dcgm-exporter print, read the same way everywhere. */
class NodeLinesTest {

    static final String UID = "4b0d8c3e-1f2a-4c6b-9d3e-0a1b2c3d4e5f";
    static final String CID = "78ed438b9a406dbd614930a477be952f3c38c90cb27b69c0bc7be890a332c9f3";

    @Test
    void theCgroupPathOfAnOomKillNamesThePodAndTheContainer() {
        String cgroupfs = "oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=" + CID + ",mems_allowed=0-1,"
                + "oom_memcg=/kubepods/burstable/pod" + UID + ",task_memcg=/kubepods/burstable/pod" + UID + "/" + CID
                + ",task=python,pid=4242,uid=0";
        assertEquals(UID, NodeLines.podUid(cgroupfs));
        assertEquals(CID, NodeLines.containerId(cgroupfs));
        assertEquals(4242, NodeLines.killedPid(cgroupfs));
        assertTrue(NodeLines.memcgKill(cgroupfs));
        String systemd = "oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=cri-containerd-" + CID
                + ".scope,mems_allowed=0-1,oom_memcg=/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod"
                + UID.replace('-', '_') + ".slice/cri-containerd-" + CID + ".scope,task_memcg=/kubepods.slice/"
                + "kubepods-burstable.slice/kubepods-burstable-pod" + UID.replace('-', '_') + ".slice/cri-containerd-"
                + CID + ".scope,task=python3,pid=77310,uid=0";
        assertEquals(UID, NodeLines.podUid(systemd));
        assertEquals(CID, NodeLines.containerId(systemd));
        String guaranteed = "Task in /kubepods/pod" + UID + "/" + CID + " killed as a result of limit of /kubepods/pod"
                + UID + "/" + CID;
        assertEquals(UID, NodeLines.podUid(guaranteed));
        assertEquals(67, NodeLines.killedPid("Memory cgroup out of memory: Killed process 67 (python) total-vm:1kB"));
        assertEquals(67, NodeLines.killedPid("oom_reaper: reaped process 67 (python), now anon-rss:0kB"));
        assertTrue(NodeLines.oomStart("python invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0, oom_score_adj=-997"));
        assertFalse(NodeLines.memcgKill("oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0"));
        assertNull(NodeLines.podUid("Out of memory: Killed process 4242 (python)"));
        assertEquals(CID, NodeLines.bareContainerId("containerd://" + CID));
    }

    @Test
    void theDriversBusIdAndTheExportersCompareEqual() {
        assertEquals("4f:00", NodeLines.pciBus("NVRM: Xid (PCI:0000:4f:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus."));
        assertEquals("cb:00", NodeLines.pciBus("NVRM: GPU 0000:cb:00.0: GPU has fallen off the bus."));
        assertEquals("cb:00", NodeLines.pciBus("00000000:CB:00.0"));
        assertEquals("03:00", NodeLines.pciBus("NVRM: Xid (0000:03:00): 14, Channel 00000001"));
        assertNull(NodeLines.pciBus("Dec 04 10:19:58 gpu-a800-01 kernel: nothing here 12:30:45"));
        assertEquals("GPU-5c1d2e3f-aaaa-bbbb-cccc-0123456789ab",
                NodeLines.gpuUuid("XidCriticalError: Xid=79 on Device=GPU-5C1D2E3F-AAAA-BBBB-CCCC-0123456789AB; marking device as unhealthy."));
    }
}
