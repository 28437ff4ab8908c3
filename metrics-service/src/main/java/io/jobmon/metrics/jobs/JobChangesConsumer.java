package io.jobmon.metrics.jobs;

import io.jobmon.contracts.events.CloudEvent;
import io.jobmon.contracts.events.JobSnapshot;
import io.jobmon.contracts.events.Topics;
import io.jobmon.contracts.messaging.ConsumerRule;
import io.jobmon.contracts.messaging.Envelopes;
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
 * ends, all in one transaction under the suite's consumer rule. Idempotent: an older or repeated snapshot changes
 * nothing. An invalid record (envelope check) goes to the DLQ; any other failure is retried.
 */
@ApplicationScoped
public class JobChangesConsumer {

    private final JobRepository jobs;
    private final Pool pool;
    private final MetricsConfig config;
    private final ConsumerRule rule;

    public JobChangesConsumer(JobRepository jobs, Pool pool, MetricsConfig config, ConsumerRule rule) {
        this.jobs = jobs;
        this.pool = pool;
        this.config = config;
        this.rule = rule;
    }

    @Incoming("job-changes")
    public Uni<Void> consume(ConsumerRecord<String, String> record) {
        return rule.handle("job-changes", Topics.JOB_CHANGES, () -> {
            if (record.value() == null) {
                return record.key() == null ? Uni.createFrom().voidItem() : pool.withTransaction(c ->
                        new JobAccessStore(c).tombstone(record.key()).chain(() -> jobs.tombstone(c, record.key())));
            }
            CloudEvent<JobSnapshot> event = Envelopes.JOB_SNAPSHOT.open(record.key(), record.value());
            return apply(event.data(), event.time() != null ? event.time() : Instant.ofEpochMilli(record.timestamp()));
        });
    }

    public Uni<Void> apply(JobSnapshot s, Instant at) {
        return pool.withTransaction(c -> new JobAccessStore(c).apply(s).chain(() -> jobs.upsert(c, s)).chain(applied -> {
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
        }));
    }
}
