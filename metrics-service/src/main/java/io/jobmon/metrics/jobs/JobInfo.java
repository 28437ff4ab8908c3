package io.jobmon.metrics.jobs;

import java.time.Instant;
import java.util.List;

/** What metrics-service knows of a job from {@code jobmon.job.changes}, beyond access. */
public record JobInfo(String jobId, String tenant, String owner, String name, String cluster, String queue,
        String status, String gpuType, int gpuCount, String namespace, List<String> pods, List<String> nodes,
        Instant submittedAt, Instant startedAt, Instant finishedAt) {

    public boolean running() {
        return "RUNNING".equals(status) || "STOPPING".equals(status) || "PARTIALLY_PENDING".equals(status);
    }
}
