package io.jobmon.contracts.events;

/** Event data that can tell whether its required fields are present. */
public interface Validatable {

    /** @throws InvalidRecordException naming the first missing or wrong field */
    void validate();

    static void require(boolean condition, String reason) {
        if (!condition) {
            throw new InvalidRecordException(reason);
        }
    }
}
