package io.jobmon.jobs.job.rest.dto;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.jobmon.contracts.access.Visibility;
import io.jobmon.contracts.events.JobStatus;
import io.jobmon.jobs.job.model.Priority;
import java.time.Instant;
import java.util.List;

/**
 * A row of the job list: what the job-monitor page shows. Queue and run time are live for unfinished jobs, in
 * seconds and in a human form ({@code 2h 13m}); {@code gpu} is the GPUs the job holds ({@code 2*A800}).
 *
 * @param subState {@code RETRYING} for an automatic attempt that is not running yet, else absent
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record JobRow(String id, String name, String owner, String project, String cluster, String region,
        String queue, JobStatus status, String subState, String reason, String message, Priority priority,
        String gpu, int gpuCount, Instant submittedAt, Instant startedAt, Instant finishedAt, long queueSeconds,
        String queueTime, long runSeconds, String runTime, String failureReason, List<String> tags,
        Visibility visibility, int attempt) {
}
