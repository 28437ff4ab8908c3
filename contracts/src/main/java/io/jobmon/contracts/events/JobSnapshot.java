package io.jobmon.contracts.events;

import java.time.Instant;
import java.util.List;

/**
 * The job's current state on {@code jobmon.job.changes} (compacted, key jobId): what other services need to
 * guard access and join their data to a job, without calling job-service.
 *
 * @param version increases with every change; a read model ignores a snapshot older than the one it holds
 * @param deleted the job was deleted: read models drop it (a later tombstone may follow)
 * @param namespace the Kubernetes namespace of the job's pods (added later; null from older producers)
 * @param failureReason why it failed: the transition's reason, later a diagnosis category (added later)
 * @param tags the job's tags (added later; null from older producers)
 */
public record JobSnapshot(String jobId, String tenant, String owner, String project, String visibility,
        List<String> shares, String name, String cluster, String region, String queue, JobStatus status,
        String reason, String gpuType, int gpuCount, List<String> pods, List<String> nodes,
        boolean supportsRestart, boolean autoFaultHandling, int retryCount, int maxRetries,
        Instant submittedAt, Instant startedAt, Instant finishedAt, long version, boolean deleted,
        String namespace, String failureReason, List<String> tags)
        implements Validatable {

    public static final String TYPE = "io.jobmon.job.snapshot.v1";

    /** The original form, without the fields added later; kept so that existing callers compile. */
    public JobSnapshot(String jobId, String tenant, String owner, String project, String visibility,
            List<String> shares, String name, String cluster, String region, String queue, JobStatus status,
            String reason, String gpuType, int gpuCount, List<String> pods, List<String> nodes,
            boolean supportsRestart, boolean autoFaultHandling, int retryCount, int maxRetries,
            Instant submittedAt, Instant startedAt, Instant finishedAt, long version, boolean deleted) {
        this(jobId, tenant, owner, project, visibility, shares, name, cluster, region, queue, status, reason, gpuType,
                gpuCount, pods, nodes, supportsRestart, autoFaultHandling, retryCount, maxRetries, submittedAt,
                startedAt, finishedAt, version, deleted, null, null, null);
    }

    @Override
    public void validate() {
        Validatable.require(jobId != null && !jobId.isBlank(), "missing 'jobId'");
        Validatable.require(tenant != null && !tenant.isBlank(), "missing 'tenant'");
        Validatable.require(owner != null && !owner.isBlank(), "missing 'owner'");
    }
}
