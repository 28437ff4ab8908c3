package io.jobmon.contracts.readmodel;

import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * The one {@code jobmon.job.changes} consumer of every service that keeps the job-access read model: present unless
 * the service disables the {@value JobChanges#CHANNEL} channel ({@code mp.messaging.incoming.job-changes.enabled=false},
 * a build-time condition; the channel itself is configured by contracts' {@code microprofile-config.properties}). Each
 * record goes through {@link JobChanges} with the service's own {@link JobChanges.Facts} bean (none:
 * {@link JobChanges#ACCESS_ONLY}).
 */
@ApplicationScoped
@IfBuildProperty(name = "mp.messaging.incoming.job-changes.enabled", stringValue = "true", enableIfMissing = true)
public class JobChangesConsumer {

    private final JobChanges changes;
    private final JobChanges.Facts facts;

    public JobChangesConsumer(JobChanges changes, Instance<JobChanges.Facts> facts) {
        this.changes = changes;
        this.facts = facts.isResolvable() ? facts.get() : JobChanges.ACCESS_ONLY;
    }

    @Incoming(JobChanges.CHANNEL)
    public Uni<Void> consume(ConsumerRecord<String, String> record) {
        return changes.consume(record, facts);
    }
}
