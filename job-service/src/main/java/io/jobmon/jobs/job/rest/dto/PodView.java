package io.jobmon.jobs.job.rest.dto;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A pod of a job as it is now: phase, node, conditions, containers with their state, restarts and how their last
 * run ended. {@code conditions} are the pod's own as the kubelet reports them; for a pod whose producer reported
 * none, {@code PodScheduled} and {@code Ready} derived from its node, phase and containers (with a message saying
 * so). Every reason carries its stable {@code reasonCode} and a {@code reasonExplanation} in the reader's language
 * beside Kubernetes' own words.
 *
 * @param phase {@code Pending}, {@code Running}, {@code Succeeded}, {@code Failed}, {@code Unknown} or
 *        {@code Deleted} (the pod is gone; its last state is kept)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(requiredProperties = {"name", "conditions", "containers", "updatedAt"})
public record PodView(String name, String namespace, String node, String phase, String reason, String reasonCode,
        String reasonExplanation, List<Condition> conditions, List<Container> containers, Instant updatedAt) {

    /**
     * A pod condition ({@code status} True, False or Unknown).
     *
     * @param typeText the condition's name in the reader's language ({@code 已调度} for {@code PodScheduled});
     *        absent for a type jobmon does not know
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(requiredProperties = {"type", "status"})
    public record Condition(String type, String typeText,
            @Schema(enumeration = {"True", "False", "Unknown"}) String status, String reason, String message,
            Instant lastTransitionTime) {
    }

    /**
     * A container now.
     *
     * @param state {@code waiting}, {@code running} or {@code terminated}
     * @param restartCount restarts so far, as the kubelet counts them
     * @param lastState how the previous run ended, for a container that restarted
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(requiredProperties = {"name", "restartCount"})
    public record Container(String name, @Schema(enumeration = {"waiting", "running", "terminated"}) String state,
            String reason, String reasonCode, String reasonExplanation, Integer exitCode, int restartCount,
            LastState lastState) {
    }

    /** The end of a container's previous run: {@code OOMKilled} and 137, say. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record LastState(String reason, String reasonCode, String reasonExplanation, Integer exitCode,
            Instant finishedAt) {
    }
}
