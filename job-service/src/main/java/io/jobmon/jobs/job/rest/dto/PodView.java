package io.jobmon.jobs.job.rest.dto;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.jobmon.contracts.events.PodSummary.ContainerSummary;
import java.time.Instant;
import java.util.List;

/**
 * A pod of a job. {@code conditions} are derived from what {@code jobmon.job.status} carries (the pod's node,
 * phase and containers): {@code PodScheduled} and {@code Ready}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PodView(String name, String namespace, String node, String phase, String reason,
        List<Condition> conditions, List<ContainerSummary> containers, Instant updatedAt) {

    public record Condition(String type, String status) {
    }
}
