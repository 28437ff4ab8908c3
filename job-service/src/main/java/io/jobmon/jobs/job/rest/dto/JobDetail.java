package io.jobmon.jobs.job.rest.dto;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.jobmon.contracts.access.Visibility;
import io.jobmon.contracts.events.JobStatus;
import io.jobmon.jobs.job.model.AttemptCause;
import io.jobmon.jobs.job.model.JobSpec;
import io.jobmon.jobs.job.model.Priority;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * One job: its spec, status with reason and message, failure reason, live queue and run time, GPUs, pods by phase,
 * tags, shares, visibility, retry information, and (on create) warnings such as dropped volumes. Texts follow the
 * reader's language as in {@link JobRow}.
 *
 * @param statusMeaning what the status means, in the reader's language
 * @param statusNextStep what the owner can do now, in the reader's language
 * @param warnings on create: volumes dropped by a clone, GPU capacity jobmon cannot check
 * @param alertsFiring alerts firing on the job now (Alertmanager's, not silenced or inhibited); null when
 *        Alertmanager is not configured or does not answer within a second
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(requiredProperties = {"id", "name", "owner", "tenant", "project", "cluster", "region", "queue", "priority",
        "status", "statusText", "statusMeaning", "statusNextStep", "gpu", "gpuCount", "submittedAt", "updatedAt", "queueSeconds", "queueTime",
        "runSeconds", "runTime", "pods", "tags", "shares", "visibility", "retry", "spec", "version"})
public record JobDetail(String id, String name, String owner, String tenant, String project, String cluster,
        String region, String namespace, String queue, Priority priority, JobStatus status, String statusText,
        String statusMeaning, String statusNextStep,
        @Schema(enumeration = {"IMAGE_PULL_FAILED",
        "VOLUME_MOUNT_FAILED", "UNSCHEDULABLE", "RETRYING", "RESTARTING"}) String subState, String subStateText,
        String reason, String reasonCode, String reasonExplanation, String message, String failureReason,
        String failureReasonCode, String failureReasonText, String failureDiagnosisId, Integer exitCode, String gpu, int gpuCount, Instant submittedAt, Instant startedAt,
        Instant finishedAt, Instant updatedAt, long queueSeconds, String queueTime, long runSeconds, String runTime,
        Pods pods, List<String> tags, List<String> shares, Visibility visibility, Retry retry, JobSpec spec,
        long version, @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> warnings,
        @JsonInclude(JsonInclude.Include.ALWAYS) @Schema(nullable = true) Integer alertsFiring) {

    /** Pods by phase. */
    @Schema(name = "JobPodCounts", requiredProperties = {"total", "byPhase"})
    public record Pods(int total, Map<String, Integer> byPhase) {
    }

    /**
     * Where the job stands in its fault-tolerance chain.
     *
     * @param retriesUsed automatic restarts the chain has used
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "JobRetry", requiredProperties = {"rootId", "attempt", "cause", "supportsRestart", "autoFaultHandling", "maxRetries",
            "retriesUsed"})
    public record Retry(String rootId, int attempt, AttemptCause cause, String diagnosisId, String previousId,
            String clonedFrom, boolean supportsRestart, boolean autoFaultHandling, int maxRetries, int retriesUsed) {
    }
}
