package io.jobmon.diagnosis.messaging;

import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.JobCommand;
import io.jobmon.diagnosis.config.DiagnosisConfig;
import io.jobmon.diagnosis.repository.FaultActionRepository;
import io.jobmon.diagnosis.repository.FaultActionRepository.FaultAction;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.Record;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.List;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.jboss.logging.Logger;

/**
 * Commands of automatic fault handling → {@code jobmon.job.commands} (key jobId). The command id is the decision's
 * id: if the broker's acknowledgement is lost and the command is sent again, job-service runs it at most once.
 */
@ApplicationScoped
public class CommandPublisher {

    private static final Logger LOG = Logger.getLogger(CommandPublisher.class);
    private static final Duration ACK = Duration.ofSeconds(10);

    private final MutinyEmitter<Record<String, String>> emitter;
    private final Pool pool;
    private final FaultActionRepository repository;
    private final DiagnosisConfig config;

    public CommandPublisher(@Channel("job-commands") MutinyEmitter<Record<String, String>> emitter, Pool pool,
            FaultActionRepository repository, DiagnosisConfig config) {
        this.emitter = emitter;
        this.pool = pool;
        this.repository = repository;
        this.config = config;
    }

    public void publish(FaultAction a) {
        JobCommand command = new JobCommand(a.id(), a.jobId(), JobCommand.Kind.valueOf(a.command()),
                List.of(a.firstDiagnosisId(), a.secondDiagnosisId()), a.reason(), a.createdAt());
        String value = CloudEvents.encode(DiagnosisPublisher.SOURCE, JobCommand.TYPE, a.jobId(), command);
        try {
            emitter.send(Record.of(a.jobId(), value)).await().atMost(ACK);
            repository.markPublished(pool, a.id()).await().atMost(ACK);
        } catch (RuntimeException e) {
            LOG.warnf("command %s not yet on jobmon.job.commands (%s); retried later", a.id(), e.getMessage());
        }
    }

    @Scheduled(every = "${jobmon.diagnosis.tasks.republish-after:30s}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP, skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void republish() {
        try {
            repository.unpublished(pool, config.tasks().republishAfter(), 100).await().atMost(ACK)
                    .forEach(this::publish);
        } catch (RuntimeException e) {
            LOG.warnf("cannot republish commands: %s", e.getMessage());
        }
    }
}
