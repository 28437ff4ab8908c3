package io.jobmon.jobs.job.service;

import io.jobmon.jobs.config.JobsConfig;
import io.jobmon.jobs.job.repository.JobRepository;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import org.jboss.logging.Logger;

/** Records as STOPPED the jobs that stayed STOPPING longer than {@code jobmon.jobs.stop-grace}. */
@ApplicationScoped
public class StopSweeper {

    private static final Logger LOG = Logger.getLogger(StopSweeper.class);

    private final Pool pool;
    private final JobRepository jobs;
    private final Stopper stopper;
    private final JobsConfig config;

    public StopSweeper(Pool pool, JobRepository jobs, Stopper stopper, JobsConfig config) {
        this.pool = pool;
        this.jobs = jobs;
        this.stopper = stopper;
        this.config = config;
    }

    @Scheduled(every = "${jobmon.jobs.sweep-interval:30s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> sweep() {
        return sweepOnce(Instant.now().minus(config.stopGrace()))
                .onFailure().invoke(e -> LOG.warnf("stop sweep failed: %s", e.getMessage()))
                .onFailure().recoverWithNull();
    }

    /** Ends every STOPPING state older than {@code before}; each job in its own transaction. */
    public Uni<Void> sweepOnce(Instant before) {
        return jobs.stoppingSince(pool, before, 500)
                .onItem().transformToMulti(ids -> Multi.createFrom().iterable(ids))
                .onItem().transformToUniAndConcatenate(id -> pool.withTransaction(tx -> jobs.lock(tx, id)
                        .chain(found -> found.map(job -> stopper.finish(tx, job)).orElse(Uni.createFrom().voidItem()))))
                .collect().last().replaceWithVoid();
    }
}
