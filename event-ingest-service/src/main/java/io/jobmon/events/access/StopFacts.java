package io.jobmon.events.access;

import io.jobmon.contracts.events.JobSnapshot;
import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.readmodel.JobChanges;
import io.jobmon.events.ingest.StopService;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;

/**
 * Beside the job-access read model kept from {@code jobmon.job.changes} (contracts'
 * {@link io.jobmon.contracts.readmodel.JobChangesConsumer}, consumer group of this service), tells the
 * status derivation when job-service stops a job (a later deletion of its pods then means STOPPED), in the access
 * row's transaction (contracts' {@link JobChanges}); the stop's status change is published after the commit.
 */
@ApplicationScoped
public class StopFacts implements JobChanges.Facts {

    private final StopService stops;

    public StopFacts(StopService stops) {
        this.stops = stops;
    }

    @Override
    public Uni<Void> apply(SqlConnection tx, JobSnapshot snapshot, Instant at) {
        return stopping(snapshot) ? stops.stopRequested(tx, snapshot.jobId()) : Uni.createFrom().voidItem();
    }

    @Override
    public Uni<Void> tombstone(SqlConnection tx, String jobId) {
        return Uni.createFrom().voidItem();
    }

    @Override
    public Uni<Void> afterCommit(JobSnapshot snapshot) {
        return stopping(snapshot) ? stops.publish() : Uni.createFrom().voidItem();
    }

    private static boolean stopping(JobSnapshot s) {
        return s.status() == JobStatus.STOPPING || s.status() == JobStatus.STOPPED;
    }
}
