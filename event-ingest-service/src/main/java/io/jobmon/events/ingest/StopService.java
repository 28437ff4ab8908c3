package io.jobmon.events.ingest;

import io.jobmon.events.status.JobModel;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;

/** Records that job-service asked to stop a job; if its pods are already gone, the job is STOPPED now. */
@ApplicationScoped
public class StopService {

    private final Pool pool;
    private final JobStateRepository jobs;
    private final OutboxRepository outbox;
    private final StatusPublisher publisher;

    public StopService(Pool pool, JobStateRepository jobs, OutboxRepository outbox, StatusPublisher publisher) {
        this.pool = pool;
        this.jobs = jobs;
        this.outbox = outbox;
        this.publisher = publisher;
    }

    public Uni<Void> stopRequested(String jobId) {
        return pool.withTransaction(conn -> jobs.lock(conn, List.of(jobId)).chain(loaded -> {
            JobModel job = loaded.get(jobId);
            if (job.stopRequested()) {
                return Uni.createFrom().item(List.<OutboxRepository.Pending>of());
            }
            job.requestStop();
            var t = job.transition(Instant.now());
            return jobs.save(conn, List.of(job)).chain(() -> outbox.add(conn, t == null ? List.of() : List.of(t)));
        })).chain(publisher::publish);
    }
}
