package io.jobmon.diagnosis.task;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.problem.ApiException;
import io.jobmon.diagnosis.analysis.AnalysisRunner;
import io.jobmon.diagnosis.autofault.AutoFaultHandler;
import io.jobmon.diagnosis.config.DiagnosisConfig;
import io.jobmon.diagnosis.engine.BundleValidationException;
import io.jobmon.diagnosis.engine.BilingualDiagnosis;
import io.jobmon.diagnosis.engine.Diagnosis;
import io.jobmon.diagnosis.evidence.EvidenceGatherer;
import io.jobmon.diagnosis.evidence.Gathered;
import io.jobmon.diagnosis.evidence.LocalEvidence;
import io.jobmon.diagnosis.evidence.MetricSnapshot;
import io.jobmon.diagnosis.messaging.OutgoingEvents;
import io.jobmon.diagnosis.repository.DiagnosisQueries;
import io.jobmon.diagnosis.repository.DiagnosisRepository;
import io.jobmon.diagnosis.repository.SnapshotRepository;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * One claimed task from start to end, on a worker thread: gather the evidence, analyse it, store the result with its
 * event for {@code jobmon.diagnoses} in the outbox, and hand periodic and JOB_FAILED ones to automatic fault handling.
 * A failure puts the task back (PENDING, later) until its attempts are used up.
 */
@ApplicationScoped
public class TaskExecution {

    private static final Logger LOG = Logger.getLogger(TaskExecution.class);
    private static final Duration DB = Duration.ofSeconds(10);

    private final Pool pool;
    private final DiagnosisRepository repository;
    private final DiagnosisQueries queries;
    private final SnapshotRepository snapshots;
    private final EvidenceGatherer gatherer;
    private final AnalysisRunner analysis;
    private final OutgoingEvents events;
    private final AutoFaultHandler autoFault;
    private final DiagnosisConfig config;

    public TaskExecution(Pool pool, DiagnosisRepository repository, DiagnosisQueries queries,
            SnapshotRepository snapshots, EvidenceGatherer gatherer, AnalysisRunner analysis,
            OutgoingEvents events, AutoFaultHandler autoFault, DiagnosisConfig config) {
        this.pool = pool;
        this.repository = repository;
        this.queries = queries;
        this.snapshots = snapshots;
        this.gatherer = gatherer;
        this.analysis = analysis;
        this.events = events;
        this.autoFault = autoFault;
        this.config = config;
    }

    public void run(DiagnosisTask task, String instance, Optional<String> authorization) {
        if (task.attempts() > config.tasks().maxAttempts()) {
            repository.giveUp(pool, task.id(), "gave up after " + config.tasks().maxAttempts() + " attempts")
                    .await().atMost(DB);
            return;
        }
        try {
            ObjectNode seed = LocalEvidence.merge(task.seed() instanceof ObjectNode o ? o : null,
                    snapshots.find(pool, task.jobId()).await().atMost(DB).map(LocalEvidence::fromSnapshot).orElse(null));
            Gathered gathered = gatherer.gather(task, authorization, seed);
            BilingualDiagnosis both = analysis.analyzeBilingualBlocking(gathered.bundle());
            Diagnosis d = both.english();
            DiagnosisRepository.Completion outcome = new DiagnosisRepository.Completion(d.category().name(),
                    d.action().name(), d.confidence(), CloudEvents.toJson(both), gathered.missingSources(),
                    gathered.sourceErrors(), gathered.read(), EvidenceOwnership.foreign(d, gathered.bundle()),
                    MetricSnapshot.of(gathered.bundle().path("metrics"), config.evidence().snapshotPoints()));
            // The result and its event on jobmon.diagnoses commit together (the outbox publishes after).
            boolean stored = pool.withTransaction(tx -> repository.complete(tx, task.id(), instance, outcome)
                    .call(done -> !done ? Uni.createFrom().voidItem() : events.finished(tx, task.id(), task.jobId(),
                            task.trigger().name(), d.category().name(), d.action().name(), d.summary(),
                            d.confidence())))
                    .await().atMost(DB);
            if (!stored) {
                LOG.infof("diagnosis %s was taken over by another instance; result dropped", task.id());
                return;
            }
        } catch (RuntimeException e) {
            fail(task, instance, e);
            return;
        }
        DiagnosisTask done = queries.find(pool, task.id()).await().atMost(DB).orElseThrow();
        if (done.trigger() == DiagnosisTask.Trigger.PERIODIC) {
            autoFault.afterDiagnosis(done);
        } else if (done.trigger() == DiagnosisTask.Trigger.JOB_FAILED) {
            autoFault.afterFailure(done);
        }
    }

    private void fail(DiagnosisTask task, String instance, RuntimeException e) {
        String error;
        if (e instanceof BundleValidationException b) {
            error = "the evidence gathered is malformed at " + b.field();
        } else if (e instanceof ApiException a) {
            error = a.getMessage();
        } else {
            error = "internal error; the platform team finds it by the diagnosis id";
            LOG.errorf(e, "diagnosis %s failed", task.id());
        }
        repository.fail(pool, task.id(), instance, error, config.tasks().maxAttempts(),
                config.tasks().pollInterval().multipliedBy(5L * task.attempts())).await().atMost(DB);
    }

}
