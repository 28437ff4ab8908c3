package io.jobmon.contracts.events;

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

    /** A container's state: {@code waiting}, {@code running} or {@code terminated}, with reason and exit code. */
    public record ContainerSummary(String name, String state, String reason, Integer exitCode, int restartCount) {
    }

    /** A pod condition: {@code status} is {@code True}, {@code False} or {@code Unknown}. */
    public record Condition(String type, String status, String reason, String message, Instant lastTransitionTime) {
    }
}
