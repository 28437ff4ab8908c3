package io.jobmon.diagnosis.messaging;

import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.events.JobStatusChanged;
import io.jobmon.contracts.events.Topics;
import io.jobmon.contracts.messaging.ConsumerRule;
import io.jobmon.contracts.messaging.Envelopes;
import io.jobmon.diagnosis.config.DiagnosisConfig;
import io.jobmon.diagnosis.evidence.LocalEvidence;
import io.jobmon.diagnosis.repository.DiagnosisRepository;
import io.jobmon.diagnosis.task.DiagnosisTask;
import io.jobmon.diagnosis.task.NewTask;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * {@code jobmon.job.status}: a job that became FAILED or ABNORMAL gets an automatic diagnosis task (trigger
 * {@code JOB_FAILED}), seeded with the record's pods and reason. Idempotent per (jobId, sequence): a redelivered
 * record finds its task stored already. Under the suite's consumer rule: an invalid record to the DLQ with the
 * reason, any other failure retried until it succeeds.
 */
@ApplicationScoped
public class JobStatusConsumer {

    /** Log lines written just after the transition (the last words of a crash) still belong to the evidence. */
    private static final Duration AFTER = Duration.ofMinutes(1);

    private final Pool pool;
    private final DiagnosisRepository repository;
    private final DiagnosisConfig config;
    private final ConsumerRule rule;

    public JobStatusConsumer(Pool pool, DiagnosisRepository repository, DiagnosisConfig config, ConsumerRule rule) {
        this.pool = pool;
        this.repository = repository;
        this.config = config;
        this.rule = rule;
    }

    @Incoming("job-status")
    public Uni<Void> consume(ConsumerRecord<String, String> record) {
        return rule.handle("job-status", Topics.JOB_STATUS, () -> {
            JobStatusChanged change = Envelopes.JOB_STATUS.data(record.key(), record.value());
            return needsDiagnosis(change)
                    ? repository.insertFailure(pool, task(change), config.automatic().failureEpisode()).replaceWithVoid()
                    : Uni.createFrom().voidItem();
        });
    }

    private boolean needsDiagnosis(JobStatusChanged c) {
        return config.automatic().onFailure() && (c.status() == JobStatus.FAILED || c.status() == JobStatus.ABNORMAL);
    }

    /**
     * One automatic diagnosis per failure: a job fails once (a second FAILED record only refines its reason, e.g.
     * the pod's OOMKilled after the Job controller's BackoffLimitExceeded); it may become ABNORMAL several times, and
     * then FAILED: those within {@code automatic.failure-episode} of the last one are the same failure.
     */
    static String dedupeKey(JobStatusChanged c) {
        return "status:" + c.jobId() + ":" + (c.status() == JobStatus.FAILED ? "FAILED" : c.sequence());
    }

    private NewTask task(JobStatusChanged c) {
        Instant to = c.time().plus(AFTER);
        return new NewTask(NewTask.newId(), c.jobId(), DiagnosisTask.Trigger.JOB_FAILED,
                dedupeKey(c), null, to.minus(config.tasks().maxWindow()), to, List.of(),
                null, config.automatic().locale(), LocalEvidence.fromStatus(c), Duration.ZERO);
    }
}
