package io.jobmon.diagnosis.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * A neighbour's node-level evidence does not decide a job's diagnosis (issue #24): its GPU's Xid (series or kernel
 * line) and its container's memory-cgroup OOM kill on the same node are set aside; the job's own are not.
 */
class NodeEvidenceTest {

    static final DiagnosisEngine ENGINE = new DiagnosisEngine();
    static final Instant T = Instant.parse("2026-12-04T10:00:00Z");

    /** A failed job holding GPUs 0 and 1 of gpu-a800-01, which ends with a KeyError in its own code. */
    static ObjectNode bundle(int exitCode, String reason) {
        ObjectNode b = BundleBuilder.JSON.createObjectNode();
        b.putObject("job").put("id", "j-1").put("status", "FAILED").put("startedAt", T.toString())
                .put("finishedAt", T.plusSeconds(1200).toString());
        ObjectNode pod = b.putArray("pods").addObject().put("name", "w-0").put("node", "gpu-a800-01").put("phase", "Failed");
        pod.putArray("containers").addObject().put("name", "main").put("state", "terminated").put("reason", reason)
                .put("exitCode", exitCode);
        ArrayNode logs = b.putArray("logs");
        logs.addObject().put("time", T.plusSeconds(1190).toString()).put("pod", "w-0").put("stream", "user")
                .put("line", "Traceback (most recent call last):");
        logs.addObject().put("time", T.plusSeconds(1191).toString()).put("pod", "w-0").put("stream", "user")
                .put("line", "KeyError: 'input_ids'");
        ArrayNode metrics = b.putArray("metrics");
        for (int gpu = 0; gpu < 2; gpu++) {
            ObjectNode m = metrics.addObject().put("name", "DCGM_FI_DEV_GPU_UTIL");
            m.putObject("labels").put("gpu", "" + gpu).put("UUID", "GPU-0000000" + gpu + "-aaaa-bbbb-cccc-0123456789ab")
                    .put("pci_bus_id", "00000000:0" + (7 + gpu) + ":00.0").put("Hostname", "gpu-a800-01").put("pod", "w-0");
            m.putArray("samples").addArray().add(T.plusSeconds(1100).toString()).add(95.0);
        }
        return b;
    }

    static void xidOnGpu(ObjectNode b, int gpu, String bus) {
        ObjectNode m = ((ArrayNode) b.get("metrics")).addObject().put("name", "DCGM_FI_DEV_XID_ERRORS");
        m.putObject("labels").put("gpu", "" + gpu).put("UUID", "GPU-0000000" + gpu + "-aaaa-bbbb-cccc-0123456789ab")
                .put("pci_bus_id", "00000000:" + bus + ":00.0").put("Hostname", "gpu-a800-01");
        m.putArray("samples").addArray().add(T.plusSeconds(1150).toString()).add(79.0);
        ((ArrayNode) b.get("logs")).addObject().put("time", T.plusSeconds(1150).toString()).put("stream", "system")
                .put("line", "Dec 04 10:19:10 gpu-a800-01 kernel: NVRM: Xid (PCI:0000:" + bus.toLowerCase(Locale.ROOT)
                        + ":00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.");
    }

    static void memcgOom(ObjectNode b, String comm, int pid) {
        ArrayNode logs = (ArrayNode) b.get("logs");
        String at = "Dec 04 10:19:30 gpu-a800-01 kernel: ";
        String uid = "4b0d8c3e-1f2a-4c6b-9d3e-0a1b2c3d4e5f";
        logs.addObject().put("time", T.plusSeconds(1170).toString()).put("stream", "system")
                .put("line", at + comm + " invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0, oom_score_adj=968");
        logs.addObject().put("time", T.plusSeconds(1170).toString()).put("stream", "system")
                .put("line", at + "oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=/,mems_allowed=0-1,"
                        + "oom_memcg=/kubepods/burstable/pod" + uid + ",task_memcg=/kubepods/burstable/pod" + uid
                        + "/78ed438b9a406dbd614930a477be952f3c38c90cb27b69c0bc7be890a332c9f3,task=" + comm + ",pid=" + pid
                        + ",uid=0");
        logs.addObject().put("time", T.plusSeconds(1170).toString()).put("stream", "system")
                .put("line", at + "Memory cgroup out of memory: Killed process " + pid + " (" + comm + ") total-vm:"
                        + "67764928kB, anon-rss:16530112kB, file-rss:91332kB, shmem-rss:4096kB, UID:0 pgtables:33060kB");
    }

    static Category category(ObjectNode b) {
        return ENGINE.analyze(EvidenceBundle.fromJson(b), Locale.ENGLISH).category();
    }

    @Test
    void anXidOfAGpuTheJobDidNotHoldIsANeighboursAndOneOfItsOwnIsItsCause() {
        ObjectNode neighbour = bundle(1, "Error");
        xidOnGpu(neighbour, 6, "A0");
        assertEquals(Category.USER_CODE_ERROR, category(neighbour));
        ObjectNode own = bundle(1, "Error");
        xidOnGpu(own, 1, "08");
        assertEquals(Category.GPU_HARDWARE_FAULT, category(own));
    }

    @Test
    void aMemoryCgroupOomKillIsTheJobsOnlyWhenItsContainerWasKilledForIt() {
        ObjectNode neighbour = bundle(1, "Error");
        memcgOom(neighbour, "java", 31877);
        assertEquals(Category.USER_CODE_ERROR, category(neighbour));
        ObjectNode own = bundle(137, "OOMKilled");
        memcgOom(own, "python", 4242);
        assertEquals(Category.CONTAINER_OOM, category(own));
        assertNotEquals(Category.CONTAINER_OOM, category(bundle(1, "Error")));
    }
}
