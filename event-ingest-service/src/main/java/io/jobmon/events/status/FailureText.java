package io.jobmon.events.status;

import io.jobmon.contracts.i18n.Text;
import io.jobmon.events.k8s.ContainerView;

/**
 * The message a user reads for a container that ended badly: what its reason and exit code mean, as catalogue keys
 * (common catalogue, {@code status.*}) around Kubernetes' own words.
 */
final class FailureText {

    private FailureText() {
    }

    static Text terminated(ContainerView c) {
        Text meaning = meaning(c.reason(), c.exitCode());
        return c.message() == null ? Text.of("status.container.terminated", c.name(), meaning)
                : Text.of("status.container.terminated-detail", c.name(), meaning, c.message().strip());
    }

    static Text restarted(ContainerView c) {
        return Text.of(c.restartCount() == 1 ? "status.container.restarted-once" : "status.container.restarted",
                c.name(), c.restartCount(), meaning(c.lastReason(), c.lastExitCode()));
    }

    /** A waiting container that cannot start, with Kubernetes' message (or its reason). */
    static Text waiting(ContainerView c) {
        return Text.of("status.container.waiting", c.name(), c.message() == null ? c.reason() : c.message());
    }

    static Text meaning(String reason, Integer exitCode) {
        if ("OOMKilled".equals(reason)) {
            return exitCode == null ? Text.of("status.exit.oom") : Text.of("status.exit.oom-code", exitCode);
        }
        if (exitCode == null) {
            return Text.of("status.exit.terminated", reason);
        }
        return switch (exitCode) {
            case 1, 2, 126, 127, 134, 137, 139, 143 -> Text.of("status.exit." + exitCode);
            default -> exitCode > 128 ? Text.of("status.exit.signal", exitCode, exitCode - 128)
                    : Text.of("status.exit.code", exitCode);
        };
    }
}
