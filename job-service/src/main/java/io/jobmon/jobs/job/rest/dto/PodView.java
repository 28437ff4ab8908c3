package io.jobmon.jobs.job.rest.dto;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.jobmon.contracts.events.PodSummary.ContainerSummary;
import java.time.Instant;
import java.util.List;

/**
 * A pod of a job. {@code conditions} are the pod's own as {@code jobmon.job.status} carries them; for a pod whose
 * producer reported none, {@code PodScheduled} and {@code Ready} derived from its node, phase and containers.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PodView(String name, String namespace, String node, String phase, String reason,
        List<Condition> conditions, List<ContainerSummary> containers, Instant updatedAt) {

    public record Condition(String type, String status, String reason, String message, Instant lastTransitionTime) {
    }
}
