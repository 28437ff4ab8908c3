package io.jobmon.diagnosis.task;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jobmon.diagnosis.autofault.AutoFaultPolicy;
import io.jobmon.diagnosis.engine.DiagnosisEngine;
import io.jobmon.diagnosis.engine.EvidenceBundle;
import io.jobmon.diagnosis.engine.Diagnosis;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * The guard acts only on the job's own evidence: a kernel OOM line that log-service attributed to the job's pod (or a
 * node-wide line) may decide a TERMINATE; the same line without attribution — a neighbour's, as far as anyone can
 * tell — may not.
 */
class EvidenceOwnershipTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final DiagnosisEngine ENGINE = new DiagnosisEngine();

    /** A running job's bundle with training lines and a kernel OOM-killer line of its node. */
    static ObjectNode bundle(String attributionReason) {
        ObjectNode b = JSON.createObjectNode();
        b.putObject("job").put("id", "j-1").put("status", "FAILED").put("startedAt", "2026-12-04T10:00:00Z")
                .put("finishedAt", "2026-12-04T10:20:00Z");
        ObjectNode pod = b.putArray("pods").addObject().put("name", "j-1-0").put("node", "gpu-a800-01")
                .put("phase", "Failed");
        pod.putArray("containers").addObject().put("name", "main").put("state", "terminated")
                .put("reason", "OOMKilled").put("exitCode", 137).put("restartCount", 0);
        ArrayNode logs = b.putArray("logs");
        logs.addObject().put("time", "2026-12-04T10:19:00Z").put("pod", "j-1-0").put("stream", "user")
                .put("line", "Map (num_proc=64):  61%|██████    | 734000/1203344 [05:33<03:33, 2200.00 examples/s]");
        ObjectNode kernel = logs.addObject().put("time", "2026-12-04T10:19:58Z").put("stream", "system")
                .put("node", "gpu-a800-01").put("line", "Dec 04 10:19:58 gpu-a800-01 kernel: Memory cgroup out of "
                        + "memory: Killed process 4242 (python) total-vm:70254592kB, anon-rss:67043328kB, "
                        + "file-rss:71424kB, shmem-rss:0kB, UID:0 pgtables:137216kB oom_score_adj:-997");
        if (attributionReason != null) {
            kernel.putObject("attribution").put("reason", attributionReason).put("pod", "j-1-0");
        }
        return b;
    }

    static Diagnosis diagnose(ObjectNode b) {
        return ENGINE.analyze(EvidenceBundle.fromJson(b), Locale.ENGLISH);
    }

    @Test
    void aSystemLineAttributedToTheJobOrNodeWideMayDecide() {
        for (String reason : new String[] {"pod", "node"}) {
            ObjectNode b = bundle(reason);
            assertNull(EvidenceOwnership.foreign(diagnose(b), b), reason);
        }
    }

    @Test
    void aQuotedSystemLineWithoutAttributionStopsTheGuard() {
        ObjectNode b = bundle(null);
        Diagnosis d = diagnose(b);
        assertTrue(d.evidence().stream().anyMatch(e -> e.text().contains("Killed process")), d.toString());
        String why = EvidenceOwnership.foreign(d, b);
        assertNotNull(why);
        assertTrue(why.contains("not attributed"), why);
        var skipped = AutoFaultPolicy.foreignEvidence(null, why).orElseThrow();
        assertTrue(skipped.outcome() == AutoFaultPolicy.Outcome.SKIPPED && skipped.reason().contains("not the job's own"));
    }

    @Test
    void theEnginesOwnDescriptionOfTheJobsLinesIsTheJobs() {
        ObjectNode b = bundle("pod");
        Diagnosis d = diagnose(b);
        ((ArrayNode) b.get("logs")).remove(1); // what the engine quoted is no line of the bundle: its own words
        assertNull(EvidenceOwnership.foreign(d, b));
    }
}
