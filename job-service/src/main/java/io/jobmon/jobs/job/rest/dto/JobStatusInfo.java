package io.jobmon.jobs.job.rest.dto;

import io.jobmon.contracts.events.JobStatus;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A job status as the console explains it, in the reader's language.
 *
 * @param meaning what a job in this status is doing
 * @param nextStep what its owner can do
 * @param waiting not started yet (queue time grows)
 * @param terminal the job will never run again (it may be deleted)
 */
@Schema(requiredProperties = {"status", "statusText", "meaning", "nextStep", "waiting", "terminal"})
public record JobStatusInfo(JobStatus status, String statusText, String meaning, String nextStep, boolean waiting,
        boolean terminal) {
}
