package io.jobmon.jobs.outbox;

import io.jobmon.contracts.events.JobSnapshot;
import io.jobmon.jobs.job.model.JobRecord;
import io.jobmon.jobs.job.repository.PodRepository.PodsAndNodes;
import java.util.List;

/** The {@code jobmon.job.changes} snapshot of a job record. */
public final class SnapshotFactory {

    private SnapshotFactory() {
    }

    public static JobSnapshot of(JobRecord j, PodsAndNodes pods, boolean deleted) {
        return new JobSnapshot(j.id(), j.tenant(), j.owner(), j.project(), j.visibility().name(), List.copyOf(j.shares()),
                j.name(), j.cluster(), j.region(), j.queue(), j.status(), j.reason(), j.gpuType(), j.gpuCount(),
                pods.pods(), pods.nodes(), j.supportsRestart(), j.autoFaultHandling(), j.retryCount(), j.maxRetries(),
                j.submittedAt(), j.startedAt(), j.finishedAt(), j.version(), deleted, j.namespace(), j.failureReason(),
                List.copyOf(j.tags()));
    }
}
