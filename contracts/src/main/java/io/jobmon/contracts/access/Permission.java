package io.jobmon.contracts.access;

/** What a caller may do with a job. */
public enum Permission {
    /** See the job, its detail, events, metrics and diagnoses. */
    VIEW,
    /** Read and download its logs. */
    READ_LOGS,
    /** Clone it into a job of one's own. */
    CLONE,
    /** Stop, delete, resubmit, share, tag, change visibility, ask a diagnosis that may act. */
    ACT
}
