package io.jobmon.logs.jobs;

import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.JobSnapshot;
import io.jobmon.contracts.readmodel.JobAccessStore;
import io.jobmon.logs.intake.ConsumerRule;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Keeps the job-access read model and the jobs' facts (name, run window, pods, nodes) from {@code jobmon.job.changes};
 * an invalid snapshot goes to the DLQ with the reason.
 */
@ApplicationScoped
public class JobChangesConsumer {

    private final JobAccessStore access;
    private final JobRepository jobs;

    public JobChangesConsumer(JobAccessStore access, JobRepository jobs) {
        this.access = access;
        this.jobs = jobs;
    }

    @Incoming("job-changes")
    public Uni<Void> consume(ConsumerRecord<String, String> record) {
        if (record.value() == null) {
            return record.key() == null ? Uni.createFrom().voidItem() : ConsumerRule.untilDone("job tombstone",
                    () -> access.tombstone(record.key()).chain(() -> jobs.tombstone(record.key())));
        }
        // An invalid snapshot throws InvalidRecordException here: the channel dead-letters it with the reason.
        JobSnapshot s = CloudEvents.decode(record.value(), JobSnapshot.class).data();
        return ConsumerRule.untilDone("job snapshot " + s.jobId(), () -> access.apply(s).chain(() -> jobs.apply(s)));
    }
}
