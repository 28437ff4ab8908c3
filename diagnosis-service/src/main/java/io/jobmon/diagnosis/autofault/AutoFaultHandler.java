package io.jobmon.diagnosis.autofault;

import io.jobmon.diagnosis.config.DiagnosisConfig;
import io.jobmon.diagnosis.messaging.OutgoingEvents;
import io.jobmon.diagnosis.repository.DiagnosisQueries;
import io.jobmon.diagnosis.repository.FaultActionRepository;
import io.jobmon.diagnosis.repository.FaultActionRepository.FaultAction;
import io.jobmon.diagnosis.repository.SnapshotRepository;
import io.jobmon.diagnosis.task.DiagnosisTask;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * After each periodic diagnosis: if it and the one before agree on RESTART or TERMINATE, decide (see
 * {@link AutoFaultPolicy}), record the decision with both diagnosis ids, and put the command in the outbox in the same
 * transaction. After the JOB_FAILED diagnosis of a job that ended for a platform-side cause: the same with that one
 * diagnosis (a RESTART: job-service makes the next attempt of the chain, the diagnosis recorded as its cause).
 *
 * <p>Decisions about one job are serialised across instances by a transaction-scoped advisory lock, so two
 * instances finishing consecutive diagnoses at the same moment cannot both decide. A diagnosis takes part in at most
 * one decision (unique keys, and the previous diagnosis must be newer than the last decision), and after a command
 * the job is left alone for the cool-down.
 */
@ApplicationScoped
public class AutoFaultHandler {

    private static final Logger LOG = Logger.getLogger(AutoFaultHandler.class);
    private static final Duration DB = Duration.ofSeconds(10);

    private final Pool pool;
    private final DiagnosisQueries queries;
    private final SnapshotRepository snapshots;
    private final FaultActionRepository actions;
    private final OutgoingEvents events;
    private final DiagnosisConfig config;

    public AutoFaultHandler(Pool pool, DiagnosisQueries queries, SnapshotRepository snapshots,
            FaultActionRepository actions, OutgoingEvents events, DiagnosisConfig config) {
        this.pool = pool;
        this.queries = queries;
        this.snapshots = snapshots;
        this.actions = actions;
        this.events = events;
        this.config = config;
    }

    public void afterDiagnosis(DiagnosisTask current) {
        if (!config.autoFault().enabled() || !AutoFaultPolicy.actionable(current.action(), current.category())) {
            return;
        }
        pool.withTransaction(tx -> tx
                .preparedQuery("SELECT pg_advisory_xact_lock(hashtext($1))").execute(Tuple.of("auto-fault:" + current.jobId()))
                .chain(() -> queries.previousPeriodic(tx, current))
                .chain(previous -> previous.filter(p -> current.action().equals(p.action())
                        && AutoFaultPolicy.actionable(p.action(), p.category())).isEmpty()
                        ? Uni.createFrom().item(Optional.<FaultAction>empty())
                        : decide(tx, previous.get(), current)))
                .await().atMost(DB);
    }

    public void afterFailure(DiagnosisTask current) {
        if (!config.autoFault().enabled() || current.category() == null || current.confidence() == null
                || !config.autoFault().restartOnFailure().contains(current.category())) {
            return;
        }
        pool.withTransaction(tx -> tx
                .preparedQuery("SELECT pg_advisory_xact_lock(hashtext($1))").execute(Tuple.of("auto-fault:" + current.jobId()))
                .chain(() -> actions.lastDecision(tx, current.jobId()))
                .chain(last -> {
                    if (last != null && last.plus(config.autoFault().cooldown()).isAfter(Instant.now())) {
                        LOG.infof("job %s: failed for %s, but an automatic action was taken at %s (cool-down)",
                                current.jobId(), current.category(), last);
                        return Uni.createFrom().item(Optional.<FaultAction>empty());
                    }
                    return snapshots.find(tx, current.jobId()).chain(snapshot -> AutoFaultPolicy.afterFailure(
                            current.category(), current.confidence(), config.autoFault().restartOnFailure(),
                            config.autoFault().minConfidence(), snapshot)
                            .map(decision -> AutoFaultPolicy.foreignEvidence(current.foreignEvidence())
                                    .orElse(decision))
                            .map(decision -> record(tx, null, current, "RESTART", decision))
                            .orElseGet(() -> Uni.createFrom().item(Optional.<FaultAction>empty())));
                }))
                .await().atMost(DB);
    }

    /** Inside the job's lock: cool-down, policy, record. Empty when nothing was recorded. */
    private Uni<Optional<FaultAction>> decide(SqlClient tx, DiagnosisTask previous, DiagnosisTask current) {
        return actions.lastDecision(tx, current.jobId()).chain(last -> {
            if (last != null && last.plus(config.autoFault().cooldown()).isAfter(Instant.now())) {
                LOG.infof("job %s: %s agreed again, but an automatic action was taken at %s (cool-down)",
                        current.jobId(), current.action(), last);
                return Uni.createFrom().item(Optional.<FaultAction>empty());
            }
            return snapshots.find(tx, current.jobId()).chain(snapshot -> {
                AutoFaultPolicy.Decision decision = AutoFaultPolicy.foreignEvidence(previous.foreignEvidence(),
                        current.foreignEvidence()).orElseGet(() -> AutoFaultPolicy.decide(current.action(),
                                previous.category(), current.category(), snapshot));
                return record(tx, previous.id(), current, current.action(), decision);
            });
        });
    }

    /** Records a decision (and, when commanded, its command in the outbox); empty when one was recorded already. */
    private Uni<Optional<FaultAction>> record(SqlClient tx, String previousId, DiagnosisTask current, String command,
            AutoFaultPolicy.Decision decision) {
        FaultAction action = new FaultAction("cmd-" + UUID.randomUUID(), current.jobId(), previousId, current.id(),
                command, decision.outcome().name(), decision.reason(), Instant.now());
        boolean commanded = decision.outcome() == AutoFaultPolicy.Outcome.COMMANDED;
        return actions.insert(tx, action).call(inserted -> inserted && commanded
                ? events.command(tx, action) : Uni.createFrom().voidItem()).map(inserted -> {
                    if (inserted) {
                        LOG.infof("job %s: automatic %s %s (%s): %s", current.jobId(), command, decision.outcome(),
                                previousId == null ? current.id() : previousId + ", " + current.id(), decision.reason());
                    }
                    return inserted ? Optional.of(action) : Optional.<FaultAction>empty();
                });
    }
}
