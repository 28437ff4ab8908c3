package io.jobmon.jobs.job.model;

import io.jobmon.contracts.events.PodSummary.Condition;
import io.jobmon.contracts.events.PodSummary.ContainerSummary;
import java.time.Instant;
import java.util.List;

/** A row of {@code jobs.job_pod}: the last known state of one pod of a job ({@code conditions} null when never reported). */
public record PodRecord(String jobId, String name, String namespace, String node, String phase, String reason,
        List<ContainerSummary> containers, List<Condition> conditions, Instant updatedAt) {
}
