package io.jobmon.logs.jobs;

import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

/**
 * Gives held user chunks (stored before any job named their pod) to the job whose snapshot now names the pod. A
 * snapshot does it itself when it arrives; this sweep covers the lines flushed just after it.
 */
@ApplicationScoped
public class Attributor {

    private static final Logger LOG = Logger.getLogger(Attributor.class);
    private static final String ATTRIBUTE = "UPDATE chunk c SET job_id = p.job_id FROM job_pod p"
            + " WHERE c.job_id IS NULL AND c.kind = 'u' AND c.pod = p.pod AND (p.namespace = '' OR p.namespace = c.namespace)";

    private final Pool pool;

    public Attributor(Pool pool) {
        this.pool = pool;
    }

    @Scheduled(every = "${jobmon.logs.intake.attribute-every:2s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> sweep() {
        return pool.query(ATTRIBUTE).execute()
                .invoke(rows -> {
                    if (rows.rowCount() > 0) {
                        LOG.debugf("attributed %d held chunks", rows.rowCount());
                    }
                })
                .onFailure().invoke(e -> LOG.warnf("attribution sweep failed: %s", e.toString()))
                .onFailure().recoverWithNull().replaceWithVoid();
    }
}
