package io.jobmon.events.status;

import io.jobmon.events.k8s.ContainerView;

/** The message a user reads for a container that ended badly: what its reason and exit code mean. */
final class FailureText {

    private FailureText() {
    }

    static String terminated(ContainerView c) {
        String meaning = meaning(c.reason(), c.exitCode());
        String text = "container " + c.name() + " " + meaning;
        return c.message() == null ? text : text + ": " + c.message().strip();
    }

    static String restarted(ContainerView c) {
        return "container " + c.name() + " restarted " + c.restartCount() + " time" + (c.restartCount() == 1 ? "" : "s")
                + "; last run " + meaning(c.lastReason(), c.lastExitCode());
    }

    static String meaning(String reason, Integer exitCode) {
        if ("OOMKilled".equals(reason)) {
            return "was killed for running out of memory (OOMKilled" + code(exitCode) + ")";
        }
        if (exitCode == null) {
            return "terminated (" + reason + ")";
        }
        return switch (exitCode) {
            case 1 -> "exited with code 1 (application error)";
            case 2 -> "exited with code 2 (misuse of a shell builtin or bad arguments)";
            case 126 -> "exited with code 126 (command not executable)";
            case 127 -> "exited with code 127 (command not found)";
            case 134 -> "was aborted (SIGABRT, exit code 134)";
            case 137 -> "was killed (SIGKILL, exit code 137)";
            case 139 -> "crashed with a segmentation fault (SIGSEGV, exit code 139)";
            case 143 -> "was terminated (SIGTERM, exit code 143)";
            default -> "exited with code " + exitCode + (exitCode > 128 ? " (signal " + (exitCode - 128) + ")" : "");
        };
    }

    private static String code(Integer exitCode) {
        return exitCode == null ? "" : ", exit code " + exitCode;
    }
}
