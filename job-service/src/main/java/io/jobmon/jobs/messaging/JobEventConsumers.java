package io.jobmon.jobs.messaging;

import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.DiagnosisFinished;
import io.jobmon.contracts.events.InvalidRecordException;
import io.jobmon.contracts.events.JobCommand;
import io.jobmon.contracts.events.JobStatusChanged;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.function.Function;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * The three topics job-service consumes. A record that does not decode, or lacks what it must carry, fails with
 * {@link InvalidRecordException}: it goes to {@code <topic>.dlq} with the reason (failure-strategy
 * dead-letter-queue) and the partition moves on. Any other failure (the database is down) is retried with backoff
 * first, so that a valid record is not parked because of an outage.
 */
@ApplicationScoped
public class JobEventConsumers {

    private final StatusService statuses;
    private final DiagnosisService diagnoses;
    private final CommandService commands;
    private final int retries;

    public JobEventConsumers(StatusService statuses, DiagnosisService diagnoses, CommandService commands,
            @ConfigProperty(name = "jobmon.consumers.retries", defaultValue = "8") int retries) {
        this.statuses = statuses;
        this.diagnoses = diagnoses;
        this.commands = commands;
        this.retries = retries;
    }

    @Incoming("job-status")
    public Uni<Void> onStatus(String value) {
        return handle(value, JobStatusChanged.class, statuses::apply);
    }

    @Incoming("diagnoses")
    public Uni<Void> onDiagnosis(String value) {
        return handle(value, DiagnosisFinished.class, diagnoses::apply);
    }

    @Incoming("job-commands")
    public Uni<Void> onCommand(String value) {
        return handle(value, JobCommand.class, commands::apply);
    }

    private <T> Uni<Void> handle(String value, Class<T> type, Function<T, Uni<Void>> apply) {
        return Uni.createFrom().item(() -> CloudEvents.decode(value, type).data())
                .flatMap(data -> apply.apply(data)
                        .onFailure(e -> !(e instanceof InvalidRecordException)).retry()
                        .withBackOff(Duration.ofMillis(200), Duration.ofSeconds(10)).atMost(retries));
    }
}
