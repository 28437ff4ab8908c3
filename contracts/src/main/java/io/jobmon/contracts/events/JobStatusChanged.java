package io.jobmon.contracts.events;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.jobmon.contracts.i18n.Text;
import java.time.Instant;
import java.util.List;

/**
 * A record on {@code jobmon.job.status}, derived by event-ingest from pods and events: a status transition, or
 * (with {@code podsOnly}) what changed in the job's pods since.
 *
 * @param sequence a transition's sequence increases with every transition of the job; a consumer applies a
 *        transition only when its sequence is higher than the last one it applied (duplicates and stale ones change
 *        nothing). A pods-only record carries the sequence of the job's last transition: it never moves the status
 * @param reason machine-readable cause, e.g. {@code ImagePullBackOff}, {@code OOMKilled}, {@code Unschedulable}
 * @param message the message in English (Kubernetes' own words, or jobmon's text rendered in English)
 * @param exitCode the failing container's exit code, if any
 * @param pods a transition: every pod of the job; a pods-only record: the pods that changed (latest state of each)
 * @param messageText when jobmon wrote the message: its catalogue key and arguments, for readers of another
 *        language (absent from older producers and for Kubernetes' own messages)
 * @param podsOnly true for a pods-only record: apply {@code pods}, leave status, reason and message alone
 */
public record JobStatusChanged(String jobId, String cluster, JobStatus status, String reason, String message,
        Integer exitCode, Instant time, long sequence, List<PodSummary> pods,
        @JsonInclude(JsonInclude.Include.NON_NULL) Text messageText,
        @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean podsOnly) implements Validatable {

    public static final String TYPE = "io.jobmon.job.status.v1";

    /** A transition whose message is Kubernetes' own (or an older producer's). */
    public JobStatusChanged(String jobId, String cluster, JobStatus status, String reason, String message,
            Integer exitCode, Instant time, long sequence, List<PodSummary> pods) {
        this(jobId, cluster, status, reason, message, exitCode, time, sequence, pods, null, false);
    }

    /** What changed in the pods of a job whose last transition is {@code sequence}, at {@code status}. */
    public static JobStatusChanged podsOnly(String jobId, String cluster, JobStatus status, Instant time,
            long sequence, List<PodSummary> pods) {
        return new JobStatusChanged(jobId, cluster, status, null, null, null, time, sequence, pods, null, true);
    }

    @Override
    public void validate() {
        Validatable.require(jobId != null && !jobId.isBlank(), "missing 'jobId'");
        Validatable.require(status != null, "missing 'status'");
        Validatable.require(time != null, "missing 'time'");
        Validatable.require(!podsOnly || pods != null && !pods.isEmpty(), "a pods-only record without 'pods'");
    }
}
