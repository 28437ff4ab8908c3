package io.jobmon.contracts.events;

/** The job states of architecture.md. */
public enum JobStatus {
    PENDING, QUEUED, PARTIALLY_PENDING, RUNNING, SUCCEEDED, FAILED, ABNORMAL, STOPPING, STOPPED;

    /** A job in a final state never runs again; only such a job may be deleted. */
    public boolean isFinal() {
        return this == SUCCEEDED || this == FAILED || this == STOPPED;
    }

    /** Not yet started: queue time is still growing. */
    public boolean isWaiting() {
        return this == PENDING || this == QUEUED || this == PARTIALLY_PENDING;
    }
}
