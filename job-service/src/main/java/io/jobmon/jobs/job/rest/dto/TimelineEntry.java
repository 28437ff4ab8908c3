package io.jobmon.jobs.job.rest.dto;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.jobmon.contracts.events.JobStatus;
import java.time.Instant;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * One status transition: when, to what, why (e.g. Unschedulable: 0/8 nodes have 8 free GPUs), and from where.
 * {@code reasonCode}, {@code reasonExplanation}, {@code statusText} and jobmon's messages as in {@link JobRow}.
 *
 * @param source {@code CLUSTER} (reported by the cluster), {@code USER} (an action through the API) or
 *        {@code SYSTEM} (automatic fault handling, the stop sweeper)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(requiredProperties = {"at", "status", "statusText", "source"})
public record TimelineEntry(Instant at, JobStatus status, String statusText, String reason, String reasonCode,
        String reasonExplanation, String message, Integer exitCode,
        @Schema(enumeration = {"CLUSTER", "USER", "SYSTEM"}) String source, Long sequence) {
}
