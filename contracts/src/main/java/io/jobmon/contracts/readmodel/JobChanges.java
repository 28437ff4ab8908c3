package io.jobmon.contracts.readmodel;

import io.jobmon.contracts.events.CloudEvent;
import io.jobmon.contracts.events.JobSnapshot;
import io.jobmon.contracts.events.Topics;
import io.jobmon.contracts.messaging.ConsumerRule;
import io.jobmon.contracts.messaging.Envelopes;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.function.BiFunction;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Applies one {@code jobmon.job.changes} record the way every service that reads jobs does: the envelope checked
 * (an invalid record goes to the DLQ with the reason), then the job-access row and the service's own facts of the
 * job in one transaction, under the suite's {@link ConsumerRule} (any other failure retried until it succeeds,
 * holding the partition). A tombstone (null value on the compacted topic) deletes the job in both. Idempotent as
 * long as the facts are: the access row ignores snapshots no newer than the stored one.
 */
@ApplicationScoped
public class JobChanges {

    /** The channel name every service gives its {@code jobmon.job.changes} consumer. */
    public static final String CHANNEL = "job-changes";

    /** What a service keeps of a job besides its access row, written in the access row's transaction. */
    public interface Facts {

        /** Stores the snapshot; {@code at} is when job-service wrote it (the event's time, else the record's). */
        Uni<Void> apply(SqlConnection tx, JobSnapshot snapshot, Instant at);

        /** The job is gone from the compacted topic. */
        Uni<Void> tombstone(SqlConnection tx, String jobId);

        /** Work after the transaction committed (publishing what it wrote, say); retried with the record. */
        default Uni<Void> afterCommit(JobSnapshot snapshot) {
            return Uni.createFrom().voidItem();
        }

        /** Facts a repository stores with these two of its methods (the write time not needed). */
        static Facts of(BiFunction<SqlConnection, JobSnapshot, Uni<Void>> apply,
                BiFunction<SqlConnection, String, Uni<Void>> tombstone) {
            return new Facts() {
                @Override
                public Uni<Void> apply(SqlConnection tx, JobSnapshot snapshot, Instant at) {
                    return apply.apply(tx, snapshot);
                }

                @Override
                public Uni<Void> tombstone(SqlConnection tx, String jobId) {
                    return tombstone.apply(tx, jobId);
                }
            };
        }
    }

    /** For a service that keeps nothing of a job but its access row. */
    public static final Facts ACCESS_ONLY = new Facts() {
        @Override
        public Uni<Void> apply(SqlConnection tx, JobSnapshot snapshot, Instant at) {
            return Uni.createFrom().voidItem();
        }

        @Override
        public Uni<Void> tombstone(SqlConnection tx, String jobId) {
            return Uni.createFrom().voidItem();
        }
    };

    private final Pool pool;
    private final ConsumerRule rule;

    public JobChanges(Pool pool, ConsumerRule rule) {
        this.pool = pool;
        this.rule = rule;
    }

    /** The consumer's whole body: {@code return jobChanges.consume(record, facts);}. */
    public Uni<Void> consume(ConsumerRecord<String, String> record, Facts facts) {
        return rule.handle(CHANNEL, Topics.JOB_CHANGES, () -> apply(record, facts));
    }

    private Uni<Void> apply(ConsumerRecord<String, String> record, Facts facts) {
        String key = record.key();
        if (record.value() == null) {
            return key == null ? Uni.createFrom().voidItem()
                    : pool.withTransaction(tx -> new JobAccessStore(tx).tombstone(key).chain(() -> facts.tombstone(tx, key)));
        }
        CloudEvent<JobSnapshot> event = Envelopes.JOB_SNAPSHOT.open(key, record.value());
        JobSnapshot snapshot = event.data();
        Instant at = event.time() != null ? event.time() : Instant.ofEpochMilli(record.timestamp());
        return pool.withTransaction(tx -> new JobAccessStore(tx).apply(snapshot).chain(() -> facts.apply(tx, snapshot, at)))
                .chain(() -> facts.afterCommit(snapshot));
    }
}
