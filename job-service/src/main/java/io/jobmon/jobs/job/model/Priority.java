package io.jobmon.jobs.job.model;

/** Scheduling priority of a job; each maps to a Kubernetes priority class. */
public enum Priority {
    LOW, NORMAL, HIGH
}
