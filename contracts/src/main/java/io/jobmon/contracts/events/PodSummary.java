package io.jobmon.contracts.events;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import java.util.List;

/**
 * A pod of a job as the job list and detail show it: phase, node, the pod's conditions as the kubelet reports
 * them ({@code PodScheduled}, {@code Initialized}, {@code ContainersReady}, {@code Ready}...), its containers.
 */
public record PodSummary(String name, String namespace, String node, String phase, String reason,
        List<ContainerSummary> containers, List<Condition> conditions) {

    /** A pod without reported conditions (a producer that does not know them). */
    public PodSummary(String name, String namespace, String node, String phase, String reason,
            List<ContainerSummary> containers) {
        this(name, namespace, node, phase, reason, containers, List.of());
    }

    /**
     * A container's state: {@code waiting}, {@code running} or {@code terminated}, with reason and exit code.
     *
     * @param lastState how the previous run of a restarted container ended ({@code lastState.terminated}); absent
     *        for a container that never restarted and from older producers
     */
    public record ContainerSummary(String name, String state, String reason, Integer exitCode, int restartCount,
            @JsonInclude(JsonInclude.Include.NON_NULL) LastState lastState) {

        public ContainerSummary(String name, String state, String reason, Integer exitCode, int restartCount) {
            this(name, state, reason, exitCode, restartCount, null);
        }
    }

    /** The end of a container's previous run: reason ({@code OOMKilled}, {@code Error}...), exit code, when. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record LastState(String reason, Integer exitCode, Instant finishedAt) {
    }

    /** A pod condition: {@code status} is {@code True}, {@code False} or {@code Unknown}. */
    public record Condition(String type, String status, String reason, String message, Instant lastTransitionTime) {
    }
}
