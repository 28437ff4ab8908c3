package io.jobmon.jobs.messaging;

import io.jobmon.contracts.events.Topics;
import io.jobmon.contracts.messaging.ConsumerRule;
import io.jobmon.contracts.messaging.Envelope;
import io.jobmon.contracts.messaging.Envelopes;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * The three topics job-service consumes, under the suite's one consumer rule ({@link ConsumerRule}): a record
 * that is not the event its channel expects ({@link Envelope}: type, spec version, key = subject = jobId, size) or
 * names a job job-service does not have goes to {@code <topic>.dlq} with the reason; any other failure is retried
 * until it succeeds. Each handler is idempotent, so a redelivered record changes nothing.
 */
@ApplicationScoped
public class JobEventConsumers {

    private final StatusHandler statuses;
    private final DiagnosisHandler diagnoses;
    private final CommandHandler commands;
    private final ConsumerRule rule;

    public JobEventConsumers(StatusHandler statuses, DiagnosisHandler diagnoses, CommandHandler commands,
            ConsumerRule rule) {
        this.statuses = statuses;
        this.diagnoses = diagnoses;
        this.commands = commands;
        this.rule = rule;
    }

    @Incoming("job-status")
    public Uni<Void> onStatus(ConsumerRecord<String, String> r) {
        return rule.handle("job-status", Topics.JOB_STATUS, () -> statuses.apply(Envelopes.JOB_STATUS.data(r.key(), r.value())));
    }

    @Incoming("diagnoses")
    public Uni<Void> onDiagnosis(ConsumerRecord<String, String> r) {
        return rule.handle("diagnoses", Topics.DIAGNOSES, () -> diagnoses.apply(Envelopes.DIAGNOSIS.data(r.key(), r.value())));
    }

    @Incoming("job-commands")
    public Uni<Void> onCommand(ConsumerRecord<String, String> r) {
        return rule.handle("job-commands", Topics.JOB_COMMANDS, () -> {
            var event = Envelopes.JOB_COMMAND.open(r.key(), r.value());
            return commands.apply(event.data(), event.source());
        });
    }
}
