package io.jobmon.events.access;

import io.jobmon.contracts.events.JobSnapshot;
import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.readmodel.JobChanges;
import io.jobmon.events.ingest.StopService;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Keeps the job-access read model from {@code jobmon.job.changes} (consumer group of this service) and tells the
 * status derivation when job-service stops a job (a later deletion of its pods then means STOPPED), in the access
 * row's transaction (contracts' {@link JobChanges}); the stop's status change is published after the commit.
 */
@ApplicationScoped
public class JobChangesConsumer implements JobChanges.Facts {

    private final JobChanges changes;
    private final StopService stops;

    public JobChangesConsumer(JobChanges changes, StopService stops) {
        this.changes = changes;
        this.stops = stops;
    }

    @Incoming(JobChanges.CHANNEL)
    public Uni<Void> consume(ConsumerRecord<String, String> record) {
        return changes.consume(record, this);
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
