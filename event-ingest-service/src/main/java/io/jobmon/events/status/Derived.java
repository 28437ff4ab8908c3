package io.jobmon.events.status;

import io.jobmon.contracts.events.JobStatus;
import java.time.Instant;
import java.util.Objects;

/**
 * A status with its reason, as derived from a job's facts.
 *
 * @param at when it happened, when the facts tell (container start or finish, condition or event time); may be null
 */
public record Derived(JobStatus status, String reason, String message, Integer exitCode, Instant at) {

    /** Only a change of status or reason is a transition; a new message or time alone is not. */
    public boolean sameAs(JobStatus otherStatus, String otherReason) {
        return status == otherStatus && Objects.equals(reason, otherReason);
    }

    static Derived of(JobStatus status, String reason, String message, Instant at) {
        return new Derived(status, reason, message, null, at);
    }
}
