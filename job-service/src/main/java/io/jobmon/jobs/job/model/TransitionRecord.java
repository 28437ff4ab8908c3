package io.jobmon.jobs.job.model;

import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.i18n.Text;
import java.time.Instant;

/**
 * A row of {@code jobs.job_transition}: one status change of a job.
 *
 * @param source {@code CLUSTER} (from jobmon.job.status), {@code USER} (an API action) or {@code SYSTEM}
 *        (automatic fault handling, the stop sweeper)
 * @param sequence the event's sequence for CLUSTER transitions, otherwise null
 * @param messageText the message as a catalogue key when jobmon wrote it; null for Kubernetes' own words
 */
public record TransitionRecord(String jobId, JobStatus status, String reason, String message, Text messageText,
        Integer exitCode, Instant at, String source, Long sequence) {

    public static final String CLUSTER = "CLUSTER";
    public static final String USER = "USER";
    public static final String SYSTEM = "SYSTEM";
}
