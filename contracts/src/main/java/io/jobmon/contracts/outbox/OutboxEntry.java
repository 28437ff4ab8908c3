package io.jobmon.contracts.outbox;

/**
 * A claimed outbox row: the Kafka record to publish ({@code payload} null is a tombstone) and the revision it had
 * when claimed, so that a row replaced meanwhile ({@link Outbox#replace}) is not deleted with the old content.
 */
public record OutboxEntry(long id, String topic, String key, String payload, int revision) {
}
