package io.jobmon.diagnosis.messaging;

import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.DiagnosisFinished;
import io.jobmon.diagnosis.config.DiagnosisConfig;
import io.jobmon.diagnosis.repository.DiagnosisQueries;
import io.jobmon.diagnosis.repository.DiagnosisRepository;
import io.jobmon.diagnosis.task.DiagnosisTask;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.Record;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.jboss.logging.Logger;

/**
 * Finished diagnoses → {@code jobmon.diagnoses} (key jobId), so that job-service can show the failure reason. The
 * row is marked published only once the broker acknowledged it; what was not is published again later, so a
 * diagnosis is never lost (job-service drops duplicates by {@code diagnosisId}).
 */
@ApplicationScoped
public class DiagnosisPublisher {

    static final String SOURCE = "/jobmon/diagnosis-service";
    private static final Logger LOG = Logger.getLogger(DiagnosisPublisher.class);
    private static final Duration ACK = Duration.ofSeconds(10);

    private final MutinyEmitter<Record<String, String>> emitter;
    private final Pool pool;
    private final DiagnosisRepository repository;
    private final DiagnosisQueries queries;
    private final DiagnosisConfig config;

    public DiagnosisPublisher(@Channel("diagnoses") MutinyEmitter<Record<String, String>> emitter, Pool pool,
            DiagnosisRepository repository, DiagnosisQueries queries, DiagnosisConfig config) {
        this.emitter = emitter;
        this.pool = pool;
        this.repository = repository;
        this.queries = queries;
        this.config = config;
    }

    /** Publishes and marks the diagnosis published; on failure it stays for {@link #republish()}. */
    public void publish(DiagnosisTask d) {
        DiagnosisFinished event = new DiagnosisFinished(d.id(), d.jobId(), d.trigger().name(), d.category(),
                d.action(), d.result() == null ? null : d.result().path("summary").asText(null),
                d.confidence() == null ? 0.0 : d.confidence(), d.finishedAt());
        String value = CloudEvents.encode(SOURCE, DiagnosisFinished.TYPE, d.jobId(), event);
        try {
            emitter.send(Record.of(d.jobId(), value)).await().atMost(ACK);
            repository.markPublished(pool, d.id()).await().atMost(ACK);
        } catch (RuntimeException e) {
            LOG.warnf("diagnosis %s not yet on jobmon.diagnoses (%s); retried later", d.id(), e.getMessage());
        }
    }

    @Scheduled(every = "${jobmon.diagnosis.tasks.republish-after:30s}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP, skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void republish() {
        try {
            queries.unpublished(pool, config.tasks().republishAfter(), 100).await().atMost(ACK).forEach(this::publish);
        } catch (RuntimeException e) {
            LOG.warnf("cannot republish diagnoses: %s", e.getMessage());
        }
    }
}
