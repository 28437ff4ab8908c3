package io.jobmon.events.k8s;

import java.time.Instant;

/**
 * A container's status as the pod reports it ({@code status.containerStatuses[]} or
 * {@code status.initContainerStatuses[]}).
 *
 * @param state {@code waiting}, {@code running} or {@code terminated} ({@code state.*})
 * @param reason {@code state.waiting.reason} or {@code state.terminated.reason}
 * @param lastReason {@code lastState.terminated.reason} (why the previous run ended), if any
 * @param lastExitCode {@code lastState.terminated.exitCode}, if any
 * @param lastFinishedAt {@code lastState.terminated.finishedAt}, if any
 */
public record ContainerView(String name, boolean init, String state, String reason, String message, Integer exitCode,
        Instant startedAt, Instant finishedAt, int restartCount, String lastReason, Integer lastExitCode,
        Instant lastFinishedAt) {

    public boolean waiting() {
        return "waiting".equals(state);
    }

    public boolean running() {
        return "running".equals(state);
    }

    public boolean terminated() {
        return "terminated".equals(state);
    }

    /** Terminated with a non-zero exit code (or a failure reason without one). */
    public boolean failed() {
        return terminated() && (exitCode != null ? exitCode != 0 : !"Completed".equals(reason));
    }

    /** Restarted after a failed run: crash looping when the restart policy allows it. */
    public boolean restartedAfterFailure() {
        return restartCount > 0 && lastExitCode != null && lastExitCode != 0;
    }
}
