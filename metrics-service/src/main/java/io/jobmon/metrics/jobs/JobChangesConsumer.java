package io.jobmon.metrics.jobs;

import io.jobmon.contracts.events.CloudEvent;
import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.JobSnapshot;
import io.jobmon.contracts.readmodel.JobAccessStore;
import io.jobmon.metrics.config.MetricsConfig;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Keeps from {@code jobmon.job.changes}: the job-access read model (contracts), the job's facts (owner, queue,
 * cluster, status, times), where its pods ran and when ({@link Placements}), and asks for its summary when it
 * ends. Idempotent: an older or repeated snapshot changes nothing. An invalid record goes to the DLQ.
 */
@ApplicationScoped
public class JobChangesConsumer {

    private final JobAccessStore access;
    private final JobRepository jobs;
    private final Pool pool;
    private final MetricsConfig config;

    public JobChangesConsumer(JobAccessStore access, JobRepository jobs, Pool pool, MetricsConfig config) {
        this.access = access;
        this.jobs = jobs;
        this.pool = pool;
        this.config = config;
    }

    @Incoming("job-changes")
    public Uni<Void> consume(ConsumerRecord<String, String> record) {
        if (record.value() == null) {
            return record.key() == null ? Uni.createFrom().voidItem()
                    : access.tombstone(record.key()).chain(() -> jobs.tombstone(pool, record.key()));
        }
        CloudEvent<JobSnapshot> event = CloudEvents.decode(record.value(), JobSnapshot.class);
        return apply(event.data(), event.time() != null ? event.time() : Instant.ofEpochMilli(record.timestamp()));
    }

    public Uni<Void> apply(JobSnapshot s, Instant at) {
        return access.apply(s).chain(() -> pool.withTransaction(c -> jobs.upsert(c, s).chain(applied -> {
            if (!applied) {
                return Uni.createFrom().voidItem();
            }
            Uni<Void> placed = jobs.intervals(c, s.jobId())
                    .chain(current -> jobs.replaceIntervals(c, s.jobId(),
                            Placements.next(current, s, at.toEpochMilli())));
            if (s.deleted()) {
                return placed.chain(() -> jobs.tombstone(c, s.jobId()));
            }
            if (Placements.ended(s) && s.startedAt() != null) {
                return placed.chain(() -> jobs.summaryDue(c, s.jobId(), s.finishedAt(), config.jobs().summaryDelay()));
            }
            return placed;
        })));
    }
}
