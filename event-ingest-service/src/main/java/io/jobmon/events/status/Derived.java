package io.jobmon.events.status;

import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.i18n.Text;
import java.time.Instant;
import java.util.Objects;

/**
 * A status with its reason, as derived from a job's facts.
 *
 * @param message in English: Kubernetes' own words, or jobmon's text rendered in English
 * @param messageText jobmon's text as a catalogue key (for readers of another language); null for Kubernetes' words
 * @param at when it happened, when the facts tell (container start or finish, condition or event time); may be null
 */
public record Derived(JobStatus status, String reason, String message, Text messageText, Integer exitCode,
        Instant at) {

    /** Only a change of status or reason is a transition; a new message or time alone is not. */
    public boolean sameAs(JobStatus otherStatus, String otherReason) {
        return status == otherStatus && Objects.equals(reason, otherReason);
    }

    /** A status whose message is Kubernetes' own (or none). */
    static Derived of(JobStatus status, String reason, String message, Instant at) {
        return new Derived(status, reason, message, null, null, at);
    }

    /** A status whose message jobmon writes. */
    static Derived written(JobStatus status, String reason, Text message, Instant at) {
        return new Derived(status, reason, StatusTexts.english(message), message, null, at);
    }

    /** The same reason and message under another status. */
    Derived as(JobStatus other) {
        return new Derived(other, reason, message, messageText, exitCode, at);
    }
}
