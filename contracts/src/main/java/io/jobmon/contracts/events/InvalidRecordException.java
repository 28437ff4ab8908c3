package io.jobmon.contracts.events;

/** A Kafka record that cannot be parsed or is invalid: it goes to the topic's DLQ with this message as the reason. */
public class InvalidRecordException extends RuntimeException {
    public InvalidRecordException(String reason) {
        super(reason);
    }
}
