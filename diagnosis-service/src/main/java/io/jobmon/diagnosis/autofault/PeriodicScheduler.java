package io.jobmon.diagnosis.autofault;

import io.jobmon.diagnosis.config.DiagnosisConfig;
import io.jobmon.diagnosis.repository.DiagnosisRepository;
import io.jobmon.diagnosis.repository.SnapshotRepository;
import io.jobmon.diagnosis.task.DiagnosisTask;
import io.jobmon.diagnosis.task.NewTask;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Every poll, each instance claims the opted-in running jobs whose periodic diagnosis is due and stores a PERIODIC
 * task for each, in one transaction: the claim moves the job's next check one interval on and skips rows another
 * instance holds, so with any number of instances each check is asked exactly once.
 */
@ApplicationScoped
public class PeriodicScheduler {

    private static final Logger LOG = Logger.getLogger(PeriodicScheduler.class);

    private final Pool pool;
    private final SnapshotRepository snapshots;
    private final DiagnosisRepository diagnoses;
    private final DiagnosisConfig config;

    public PeriodicScheduler(Pool pool, SnapshotRepository snapshots, DiagnosisRepository diagnoses,
            DiagnosisConfig config) {
        this.pool = pool;
        this.snapshots = snapshots;
        this.diagnoses = diagnoses;
        this.config = config;
    }

    /** Non-blocking: runs on the event loop, the claim and the inserts one transaction. */
    @Scheduled(every = "${jobmon.diagnosis.tasks.poll-interval:2s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> schedule() {
        if (!config.autoFault().enabled()) {
            return Uni.createFrom().voidItem();
        }
        Instant now = Instant.now();
        Duration window = config.tasks().maxWindow();
        return pool.withTransaction(tx -> snapshots.claimDue(tx, config.autoFault().interval(), config.autoFault().batchSize())
                        .chain(ids -> Multi.createFrom().iterable(ids)
                                .onItem().transformToUniAndConcatenate(id -> diagnoses.insert(tx, new NewTask(NewTask.newId(),
                                        id, DiagnosisTask.Trigger.PERIODIC, null, null, now.minus(window), now, List.of(),
                                        null, config.automatic().locale(), null, Duration.ZERO)))
                                .collect().asList()))
                .ifNoItem().after(Duration.ofSeconds(10)).fail()
                .onFailure().invoke(e -> LOG.warnf("cannot schedule periodic diagnoses: %s", e.getMessage()))
                .onFailure().recoverWithNull().replaceWithVoid();
    }
}
