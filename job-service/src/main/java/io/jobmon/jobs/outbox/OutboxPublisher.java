package io.jobmon.jobs.outbox;

import java.util.List;

/** Sends outbox rows to Kafka; the relay deletes only what this reports as acknowledged. */
public interface OutboxPublisher extends AutoCloseable {

    /** A row to publish: the record key (job id), the CloudEvent JSON, and its version. */
    record Entry(String jobId, long version, String payload) {
    }

    /** Sends every entry and waits for the broker; returns those it acknowledged (in any order). */
    List<Entry> publish(List<Entry> entries);

    @Override
    void close();
}
