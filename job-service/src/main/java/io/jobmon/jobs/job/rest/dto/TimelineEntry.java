package io.jobmon.jobs.job.rest.dto;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.jobmon.contracts.events.JobStatus;
import java.time.Instant;

/** One status transition: when, to what, why (e.g. Unschedulable: 0/8 nodes have 8 free GPUs), and from where. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TimelineEntry(Instant at, JobStatus status, String reason, String message, Integer exitCode,
        String source, Long sequence) {
}
