package io.jobmon.events.ingest;

import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.JobStatusChanged;
import io.jobmon.contracts.outbox.Outbox;
import io.jobmon.contracts.outbox.OutboxEntry;
import io.jobmon.events.config.EventsConfig;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;

/**
 * Transitions for {@code jobmon.job.status} (key jobId), appended to the suite's outbox in the transaction of the
 * records that caused them, in order, the batch's in one row (contracts' {@code OutboxBundle}, ADR 0058), claimed by this instance so that it publishes them itself right after the
 * commit ({@link StatusPublisher}): consumers drop a sequence they already applied, so a republished one after
 * a crash changes nothing.
 */
@ApplicationScoped
public class StatusOutbox {

    static final String SOURCE = "/jobmon/event-ingest-service";

    private final Outbox outbox;
    private final String topic;

    public StatusOutbox(Outbox outbox, EventsConfig config) {
        this.outbox = outbox;
        this.topic = config.statusTopic();
    }

    /** In the caller's transaction; the entry (one bundle), claimed by this instance, for {@link Outbox#publish} after the commit. */
    public Uni<List<OutboxEntry>> append(SqlConnection conn, List<JobStatusChanged> transitions) {
        List<String> keys = new ArrayList<>(transitions.size());
        List<String> values = new ArrayList<>(transitions.size());
        for (JobStatusChanged t : transitions) {
            keys.add(t.jobId());
            values.add(CloudEvents.encode(SOURCE, JobStatusChanged.TYPE, t.jobId(), t));
        }
        return outbox.appendBundle(conn, topic, keys, values);
    }
}
