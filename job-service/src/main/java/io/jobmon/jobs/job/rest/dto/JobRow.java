package io.jobmon.jobs.job.rest.dto;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.jobmon.contracts.access.Visibility;
import io.jobmon.contracts.events.JobStatus;
import io.jobmon.jobs.job.model.Priority;
import java.time.Instant;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A row of the job list: what the job-monitor page (作业监控) shows. Queue and run time are live for unfinished
 * jobs, in seconds and in a human form in the reader's language ({@code 2h 13m}, {@code 2小时13分钟}); {@code gpu}
 * is the GPUs the job holds ({@code 2*A800}).
 *
 * @param statusText the status in the reader's language ({@code 运行中}); {@code status} is for code
 * @param subState what the job is doing within its status when its owner should know: {@code IMAGE_PULL_FAILED},
 *        {@code VOLUME_MOUNT_FAILED} (stuck: it will not start until someone fixes it), {@code UNSCHEDULABLE} (no
 *        node can take it now), {@code RETRYING} (an automatic attempt not started yet), {@code RESTARTING}; else
 *        absent
 * @param subStateText what the sub-state means and what to do, in the reader's language
 * @param reason the machine-readable cause (Kubernetes' or jobmon's: {@code ImagePullBackOff}, {@code Submitted})
 * @param reasonCode the cause's stable jobmon code ({@code image-pull-failed}), absent for an unknown reason
 * @param reasonExplanation one line on what the cause means, in the reader's language
 * @param message Kubernetes' own message verbatim, or jobmon's in the reader's language
 * @param updatedAt the last change of the job or of one of its pods
 * @param startedAt never before {@code submittedAt}: a cluster time cut to the second is raised to it
 * @param failureReason the stable cause of a failure: a Kubernetes or jobmon reason ({@code OOMKilled}), or the
 *        category of the diagnosis that explained it ({@code START_COMMAND_ERROR})
 * @param failureReasonCode a reason's {@code reasonCode} ({@code out-of-memory}), or the diagnosis category
 * @param failureReasonText the failure reason in the reader's language
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(requiredProperties = {"id", "name", "owner", "project", "cluster", "region", "queue", "status", "statusText",
        "priority", "gpu", "gpuCount", "submittedAt", "updatedAt", "queueSeconds", "queueTime", "runSeconds", "runTime",
        "tags", "visibility", "attempt"})
public record JobRow(String id, String name, String owner, String project, String cluster, String region,
        String queue, JobStatus status, String statusText, @Schema(enumeration = {"IMAGE_PULL_FAILED",
        "VOLUME_MOUNT_FAILED", "UNSCHEDULABLE", "RETRYING", "RESTARTING"})
        String subState, String subStateText, String reason, String reasonCode, String reasonExplanation, String message,
        Priority priority, String gpu, int gpuCount, Instant submittedAt, Instant startedAt, Instant finishedAt,
        Instant updatedAt, long queueSeconds, String queueTime, long runSeconds, String runTime, String failureReason,
        String failureReasonCode, String failureReasonText, List<String> tags, Visibility visibility, int attempt) {
}
