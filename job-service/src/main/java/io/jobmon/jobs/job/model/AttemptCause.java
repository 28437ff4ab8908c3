package io.jobmon.jobs.job.model;

/** Why a job of a fault-tolerance chain exists. */
public enum AttemptCause {
    /** The first attempt: submitted or cloned by a user. */
    INITIAL,
    /** The user resubmitted the previous attempt with the same spec. */
    USER,
    /** The user resubmitted in DEBUG mode (same resources, a debug command). */
    USER_DEBUG,
    /** Automatic fault handling restarted it without a diagnosis (a platform-side fault). */
    PLATFORM,
    /** Automatic fault handling restarted it on a diagnosis; the attempt carries the diagnosis id. */
    DIAGNOSIS;

    /** Automatic attempts use up the chain's retries; a user's resubmit does not. */
    public boolean isAutomatic() {
        return this == PLATFORM || this == DIAGNOSIS;
    }
}
