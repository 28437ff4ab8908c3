package io.jobmon.contracts.events;

import java.time.Instant;
import java.util.List;

/**
 * A command on {@code jobmon.job.commands}, asked by automatic fault handling.
 *
 * @param commandId unique; job-service executes a command id at most once
 * @param diagnosisIds the consecutive diagnoses that agreed on this action
 */
public record JobCommand(String commandId, String jobId, Kind command, List<String> diagnosisIds, String reason,
        Instant requestedAt) implements Validatable {

    public static final String TYPE = "io.jobmon.job.command.v1";

    public enum Kind {
        RESTART, TERMINATE
    }

    @Override
    public void validate() {
        Validatable.require(commandId != null && !commandId.isBlank(), "missing 'commandId'");
        Validatable.require(jobId != null && !jobId.isBlank(), "missing 'jobId'");
        Validatable.require(command != null, "missing 'command'");
    }
}
