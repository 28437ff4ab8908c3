package io.jobmon.jobs.job.model;

import io.jobmon.contracts.access.JobAccess;
import io.jobmon.contracts.access.Visibility;
import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.i18n.Text;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * A row of {@code jobs.job}: the job aggregate as stored. {@code spec} is null when a list query did not load it.
 *
 * @param rootId the first job of this job's fault-tolerance chain (itself for a first attempt)
 * @param retryCount automatic attempts the chain has used up to and including this one
 * @param lastSequence the highest {@code jobmon.job.status} sequence applied; older ones change nothing
 * @param version increases with every change; published in the snapshot
 * @param messageText the message as a catalogue key when jobmon wrote it (rendered in the reader's language)
 * @param updatedAt the last change of the job or of one of its pods
 */
public record JobRecord(String id, String tenant, String owner, String project, String name, String cluster,
        String region, String namespace, String queue, Priority priority, JobStatus status, String reason,
        String message, Text messageText, String failureReason, String failureDiagnosisId, Integer exitCode, String gpuType,
        int gpusPerReplica, int replicas, Visibility visibility, List<String> tags, List<String> shares, JobSpec spec,
        boolean supportsRestart, boolean autoFaultHandling, int maxRetries, String rootId, int attempt,
        AttemptCause attemptCause, String diagnosisId, String previousId, String clonedFrom, int retryCount,
        String idempotencyKey, Instant submittedAt, Instant firstEventAt, Instant startedAt, Instant finishedAt,
        long lastSequence, long version, Instant updatedAt) {

    public JobAccess access() {
        return new JobAccess(owner, tenant, project, visibility, Set.copyOf(shares));
    }

    /** The same job at another version (the snapshot of its deletion is one version past the last change). */
    public JobRecord withVersion(long v) {
        return new JobRecord(id, tenant, owner, project, name, cluster, region, namespace, queue, priority, status,
                reason, message, messageText, failureReason, failureDiagnosisId, exitCode, gpuType, gpusPerReplica, replicas,
                visibility, tags, shares, spec, supportsRestart, autoFaultHandling, maxRetries, rootId, attempt,
                attemptCause, diagnosisId, previousId, clonedFrom, retryCount, idempotencyKey, submittedAt,
                firstEventAt, startedAt, finishedAt, lastSequence, v, updatedAt);
    }

    public int gpuCount() {
        return gpusPerReplica * replicas;
    }
}
