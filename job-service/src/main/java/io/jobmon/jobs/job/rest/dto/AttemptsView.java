package io.jobmon.jobs.job.rest.dto;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.jobmon.contracts.events.JobStatus;
import io.jobmon.jobs.job.model.AttemptCause;
import java.time.Instant;
import java.util.List;

/**
 * The fault-tolerance chain of a job: every attempt with its cause, the retry limit, and the commands automatic
 * fault handling sent with what came of each (a refused RESTART says why).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AttemptsView(String rootId, boolean supportsRestart, boolean autoFaultHandling, int maxRetries,
        int retriesUsed, int retriesLeft, List<Attempt> attempts, List<Command> commands) {

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Attempt(String jobId, int attempt, AttemptCause cause, String diagnosisId, String previousId,
            JobStatus status, String reason, String failureReason, Instant submittedAt, Instant startedAt,
            Instant finishedAt) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Command(String commandId, String jobId, String kind, List<String> diagnosisIds, String reason,
            String outcome, String detail, String newJobId, Instant receivedAt) {
    }
}
