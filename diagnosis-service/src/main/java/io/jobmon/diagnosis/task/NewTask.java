package io.jobmon.diagnosis.task;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * A diagnosis task to store.
 *
 * @param triggerKey unique per automatic trigger (e.g. {@code status:<job>:<sequence>}); a second task with the
 *        same key is not stored, so a redelivered record asks nothing twice. Null for a user's task.
 * @param handoff how long only the creating instance may run it (it holds the user's token)
 */
public record NewTask(String id, String jobId, DiagnosisTask.Trigger trigger, String triggerKey, String requestedBy,
        Instant windowFrom, Instant windowTo, List<String> metrics, String hint, String locale, JsonNode seed,
        Duration handoff) {

    public static String newId() {
        return "dg-" + UUID.randomUUID();
    }
}
