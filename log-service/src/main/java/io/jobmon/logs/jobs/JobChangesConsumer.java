package io.jobmon.logs.jobs;

import io.jobmon.contracts.events.JobSnapshot;
import io.jobmon.contracts.events.Topics;
import io.jobmon.contracts.messaging.ConsumerRule;
import io.jobmon.contracts.messaging.Envelopes;
import io.jobmon.contracts.readmodel.JobAccessStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Keeps the job-access read model and the jobs' facts (name, run window, pods, nodes) from {@code jobmon.job.changes},
 * under the suite's consumer rule: an invalid snapshot to the DLQ with the reason, any other failure retried.
 */
@ApplicationScoped
public class JobChangesConsumer {

    private final JobAccessStore access;
    private final JobRepository jobs;
    private final ConsumerRule rule;

    public JobChangesConsumer(JobAccessStore access, JobRepository jobs, ConsumerRule rule) {
        this.access = access;
        this.jobs = jobs;
        this.rule = rule;
    }

    @Incoming("job-changes")
    public Uni<Void> consume(ConsumerRecord<String, String> record) {
        return rule.handle("job-changes", Topics.JOB_CHANGES, () -> apply(record));
    }

    private Uni<Void> apply(ConsumerRecord<String, String> record) {
        if (record.value() == null) {
            return record.key() == null ? Uni.createFrom().voidItem()
                    : access.tombstone(record.key()).chain(() -> jobs.tombstone(record.key()));
        }
        JobSnapshot s = Envelopes.JOB_SNAPSHOT.data(record.key(), record.value());
        return access.apply(s).chain(() -> jobs.apply(s));
    }
}
