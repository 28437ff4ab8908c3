package io.jobmon.events.status;

/** What one pod says about its job: a kind for the multi-pod rule and the status it would give on its own. */
record PodOutcome(Kind kind, Derived derived) {

    enum Kind {
        /** FAILED or ABNORMAL: a container failed without restart left, preemption, eviction, node lost, deletion. */
        FAILURE,
        /** Scheduled but cannot start: image pull, mount, container config errors. */
        START_FAILURE,
        /** Not scheduled yet (QUEUED when the scheduler said why, else PENDING). */
        UNSCHEDULED,
        /** Scheduled and starting. */
        STARTING,
        RUNNING,
        SUCCEEDED,
        /** Being deleted without a known cause: neither a failure nor progress. */
        TERMINATING,
        /** Deleted after job-service asked to stop the job. */
        STOPPED
    }
}
