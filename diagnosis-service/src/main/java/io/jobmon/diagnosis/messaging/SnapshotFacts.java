package io.jobmon.diagnosis.messaging;

import io.jobmon.contracts.events.JobSnapshot;
import io.jobmon.contracts.readmodel.JobChanges;
import io.jobmon.diagnosis.repository.SnapshotRepository;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;

/**
 * {@code jobmon.job.changes} → the job snapshots, beside the job-access read model in one transaction (contracts'
 * {@link io.jobmon.contracts.readmodel.JobChangesConsumer} and {@link JobChanges}: an invalid snapshot to the DLQ with the reason, any other failure retried until it succeeds).
 * Idempotent: a snapshot no newer than the stored one changes nothing.
 */
@ApplicationScoped
public class SnapshotFacts implements JobChanges.Facts {

    private final SnapshotRepository snapshots;

    public SnapshotFacts(SnapshotRepository snapshots) {
        this.snapshots = snapshots;
    }

    @Override
    public Uni<Void> apply(SqlConnection tx, JobSnapshot snapshot, Instant at) {
        return snapshots.apply(tx, snapshot);
    }

    @Override
    public Uni<Void> tombstone(SqlConnection tx, String jobId) {
        return snapshots.tombstone(tx, jobId);
    }
}
