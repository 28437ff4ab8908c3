package io.jobmon.contracts.events;

import java.time.Instant;
import java.util.List;

/**
 * A status transition on {@code jobmon.job.status}, derived by event-ingest from pods and events.
 *
 * @param sequence increases with every transition of the job; a consumer applies a transition only when
 *        its sequence is higher than the last one it applied (duplicates and stale ones change nothing)
 * @param reason machine-readable cause, e.g. {@code ImagePullBackOff}, {@code OOMKilled}, {@code Unschedulable}
 * @param exitCode the failing container's exit code, if any
 */
public record JobStatusChanged(String jobId, String cluster, JobStatus status, String reason, String message,
        Integer exitCode, Instant time, long sequence, List<PodSummary> pods) implements Validatable {

    public static final String TYPE = "io.jobmon.job.status.v1";

    @Override
    public void validate() {
        Validatable.require(jobId != null && !jobId.isBlank(), "missing 'jobId'");
        Validatable.require(status != null, "missing 'status'");
        Validatable.require(time != null, "missing 'time'");
    }
}
