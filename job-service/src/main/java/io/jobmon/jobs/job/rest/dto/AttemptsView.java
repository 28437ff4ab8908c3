package io.jobmon.jobs.job.rest.dto;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.jobmon.contracts.events.JobStatus;
import io.jobmon.jobs.job.model.AttemptCause;
import java.time.Instant;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The fault-tolerance chain of a job: every attempt with its cause, the retry limit, and the commands automatic
 * fault handling sent with what came of each (a refused RESTART says why).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AttemptsView(String rootId, boolean supportsRestart, boolean autoFaultHandling, int maxRetries,
        int retriesUsed, int retriesLeft, List<Attempt> attempts, List<Command> commands) {

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @org.eclipse.microprofile.openapi.annotations.media.Schema(name = "JobAttempt")
    public record Attempt(String jobId, int attempt, AttemptCause cause, String diagnosisId, String previousId,
            JobStatus status, String reason, String failureReason, Instant submittedAt, Instant startedAt,
            Instant finishedAt) {
    }

    /**
     * A command of automatic fault handling and what came of it.
     *
     * @param detail why it was refused or what it did, in the reader's language
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @org.eclipse.microprofile.openapi.annotations.media.Schema(name = "FaultHandlingCommand")
    public record Command(String commandId, String jobId, @Schema(enumeration = {"RESTART", "TERMINATE"}) String kind,
            List<String> diagnosisIds, String reason,
            @Schema(enumeration = {"RECEIVED", "EXECUTED", "REFUSED"}) String outcome, String detail, String newJobId,
            Instant receivedAt) {
    }
}
