package io.jobmon.diagnosis.task;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One diagnosis of a job as stored: the task (who or what asked, for which window) and, once {@code DONE}, the
 * engine's result and the evidence sources that could not be reached.
 *
 * @param seed evidence the service already had when the task was made (e.g. the pods of a status record), used
 *        for the sections a source could not give
 * @param result the diagnosis in the contract's JSON form (diagnosis.md), null until DONE
 * @param sourceErrors per missing source, why it was missing
 * @param evidenceRead what was read of each source (lines per log read, events, metric series and points)
 * @param foreignEvidence why the deciding evidence is not shown to be the job's own (then automatic fault
 *        handling does not act on it); null when it is
 */
public record DiagnosisTask(String id, String jobId, Trigger trigger, Status status, String requestedBy,
        Instant windowFrom, Instant windowTo, List<String> metrics, String hint, String locale, JsonNode seed,
        Instant createdAt, Instant startedAt, Instant finishedAt, int attempts, String category, String action,
        Double confidence, JsonNode result, List<String> missingSources, Map<String, String> sourceErrors,
        String error, JsonNode evidenceRead, String foreignEvidence) {

    /** Who asked for it. */
    public enum Trigger {
        /** A user, through {@code POST /api/v1/jobs/{id}/diagnoses}. */
        USER,
        /** The job became FAILED or ABNORMAL. */
        JOB_FAILED,
        /** Automatic fault handling of a running job. */
        PERIODIC
    }

    /** Where the task is. */
    public enum Status {
        PENDING, RUNNING, DONE, FAILED
    }
}
