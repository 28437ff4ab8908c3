package io.jobmon.jobs.job.rest.dto;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.jobmon.contracts.events.JobStatus;
import java.time.Instant;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * One status transition: when, to what, why (e.g. Unschedulable: 0/8 nodes have 8 free GPUs), and from where.
 * {@code reasonCode}, {@code reasonExplanation}, {@code statusText} and jobmon's messages as in {@link JobRow}.
 * Entries come in the order job-service applied them, which is the order they happened in; {@code time} is the
 * cluster's clock for a {@code CLUSTER} entry (Kubernetes often cuts it to the second, so it may read a fraction
 * of a second before the entry above it) and jobmon's for the others.
 *
 * @param time when it happened, by the clock {@code timeSource} names
 * @param timeSource {@code cluster}: the time the cluster reported; {@code jobmon}: the time jobmon recorded it
 * @param source {@code CLUSTER} (reported by the cluster), {@code USER} (an action through the API) or
 *        {@code SYSTEM} (automatic fault handling, the stop sweeper)
 * @param sequence the cluster report's sequence (event-ingest's), for a {@code CLUSTER} entry
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(requiredProperties = {"time", "timeSource", "status", "statusText", "source"})
public record TimelineEntry(Instant time, @Schema(enumeration = {"cluster", "jobmon"}) String timeSource,
        JobStatus status, String statusText, String reason, String reasonCode, String reasonExplanation,
        String message, Integer exitCode, @Schema(enumeration = {"CLUSTER", "USER", "SYSTEM"}) String source,
        Long sequence) {
}
