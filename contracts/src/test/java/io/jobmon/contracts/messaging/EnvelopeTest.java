package io.jobmon.contracts.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.InvalidRecordException;
import io.jobmon.contracts.events.JobCommand;
import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.events.JobStatusChanged;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The kinds of bad record a probe sent to every topic; each is refused with a reason, the good one taken. */
class EnvelopeTest {

    static final Envelope<JobStatusChanged> STATUS = Envelope.keyedBy(JobStatusChanged.TYPE, JobStatusChanged.class,
            JobStatusChanged::jobId);

    static String status(String jobId) {
        return CloudEvents.encode("/test", JobStatusChanged.TYPE, jobId,
                new JobStatusChanged(jobId, "c", JobStatus.RUNNING, "Started", null, null, Instant.now(), 1, List.of()));
    }

    static String refusal(String key, String value) {
        return assertThrows(InvalidRecordException.class, () -> STATUS.open(key, value)).getMessage();
    }

    @Test
    void aValidEventIsTaken() {
        assertEquals("j-1", STATUS.data("j-1", status("j-1")).jobId());
    }

    @Test
    void everyKindOfBadRecordIsRefusedWithItsReason() {
        String good = status("j-1");
        Map<String, String> cases = Map.ofEntries(
                Map.entry("tombstone", String.valueOf(refusal("j-1", null))),
                Map.entry("empty", refusal("j-1", "")),
                Map.entry("not json", refusal("j-1", "{oops")),
                Map.entry("json array", refusal("j-1", "[1,2]")),
                Map.entry("specversion 2", refusal("j-1", good.replace("\"specversion\":\"1.0\"", "\"specversion\":\"2.0\""))),
                Map.entry("no specversion", refusal("j-1", good.replace("\"specversion\":\"1.0\",", ""))),
                Map.entry("foreign type", refusal("j-1", good.replace(JobStatusChanged.TYPE, "com.evil.thing"))),
                Map.entry("another jobmon type", refusal("j-1", good.replace(JobStatusChanged.TYPE, JobCommand.TYPE))),
                Map.entry("key is not the subject", refusal("j-2", good)),
                Map.entry("no key", refusal(null, good)),
                Map.entry("data id is not the subject", refusal("j-1",
                        good.replaceFirst("\"jobId\":\"j-1\"", "\"jobId\":\"j-9\""))),
                Map.entry("missing data", refusal("j-1", good.substring(0, good.indexOf(",\"data\"")) + "}")),
                Map.entry("wrong field type", refusal("j-1", good.replace("\"sequence\":1", "\"sequence\":\"x\""))),
                Map.entry("oversize", refusal("j-1", good.replace("\"Started\"", "\"" + "x".repeat(1 << 20) + "\""))));
        assertEquals(14, cases.size());
        cases.forEach((what, reason) -> assertTrue(reason != null && !reason.isBlank(), what + " has no reason"));
        assertTrue(cases.get("specversion 2").contains("specversion"), cases.get("specversion 2"));
        assertTrue(cases.get("foreign type").contains("com.evil.thing"), cases.get("foreign type"));
        assertTrue(cases.get("key is not the subject").contains("j-2"), cases.get("key is not the subject"));
        assertTrue(cases.get("oversize").contains("limit"), cases.get("oversize"));
    }
}
