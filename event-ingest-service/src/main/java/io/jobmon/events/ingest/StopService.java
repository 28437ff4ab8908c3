package io.jobmon.events.ingest;

import io.jobmon.contracts.outbox.Outbox;
import io.jobmon.events.status.JobModel;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;
import org.jboss.logging.Logger;

/** Records that job-service asked to stop a job; if its pods are already gone, the job is STOPPED now. */
@ApplicationScoped
public class StopService {

    private static final Logger LOG = Logger.getLogger(StopService.class);

    private final JobStateRepository jobs;
    private final StatusOutbox statuses;
    private final Outbox outbox;

    public StopService(JobStateRepository jobs, StatusOutbox statuses, Outbox outbox) {
        this.jobs = jobs;
        this.statuses = statuses;
        this.outbox = outbox;
    }

    /** In the caller's transaction: marks the stop, and appends the transition it causes, if any. */
    public Uni<Void> stopRequested(SqlConnection conn, String jobId) {
        return jobs.lock(conn, List.of(jobId)).chain(loaded -> {
            JobModel job = loaded.get(jobId);
            if (job.stopRequested()) {
                return Uni.createFrom().voidItem();
            }
            job.requestStop();
            var t = job.transition(Instant.now());
            return jobs.save(conn, List.of(job)).chain(() -> statuses.append(conn, t == null ? List.of() : List.of(t)))
                    .replaceWithVoid();
        });
    }

    /** After the commit: publishes now rather than on the relay's next round (a failure is left to the relay). */
    public Uni<Void> publish() {
        return outbox.drain().replaceWithVoid()
                .onFailure().invoke(e -> LOG.warnf("publishing a stop transition failed, the relay will: %s", e))
                .onFailure().recoverWithNull();
    }
}
