package io.jobmon.contracts.events;

import java.util.List;

/** A pod of a job as the job list and detail show it. */
public record PodSummary(String name, String namespace, String node, String phase, String reason,
        List<ContainerSummary> containers) {

    /** A container's state: {@code waiting}, {@code running} or {@code terminated}, with reason and exit code. */
    public record ContainerSummary(String name, String state, String reason, Integer exitCode, int restartCount) {
    }
}
