package io.jobmon.jobs.job.model;

import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.i18n.Reasons;
import java.util.Set;

/**
 * What a job is doing within its status, when that matters to its owner: a waiting job that cannot start by itself
 * (its image cannot be pulled, a volume cannot be mounted, no node can take it), an automatic attempt of fault
 * handling that has not started yet, an attempt being stopped to be restarted. Read from the job's status, reason
 * (event-ingest's: {@code ImagePullBackOff}, {@code InvalidImageName}, {@code FailedMount},
 * {@code FailedAttachVolume}, {@code FailedScheduling}...) and attempt cause; absent otherwise.
 */
public enum SubState {
    /** The image cannot be pulled or is not a valid name: the job waits until someone fixes it. */
    IMAGE_PULL_FAILED,
    /** A volume cannot be mounted or attached: the job waits until someone fixes it. */
    VOLUME_MOUNT_FAILED,
    /** No node can take the job's pods now (the scheduler's FailedScheduling / PodScheduled=False Unschedulable). */
    UNSCHEDULABLE,
    /** An attempt automatic fault handling created that has not started yet. */
    RETRYING,
    /** The attempt is being stopped by automatic fault handling, which restarts it as a new attempt. */
    RESTARTING;

    private static final Set<String> IMAGE = Set.of("image-pull-failed", "image-name-invalid", "image-not-present");

    /** The sub-state of a job, or null. */
    public static SubState of(JobRecord j) {
        if (j.status() == JobStatus.STOPPING && "Restarting".equals(j.reason())) {
            return RESTARTING;
        }
        if (!j.status().isWaiting()) {
            return null;
        }
        String code = Reasons.code(j.reason(), j.message());
        if (code != null && IMAGE.contains(code)) {
            return IMAGE_PULL_FAILED;
        }
        if ("volume-mount-failed".equals(code)) {
            return VOLUME_MOUNT_FAILED;
        }
        if ("unschedulable".equals(code)) {
            return UNSCHEDULABLE;
        }
        return j.attemptCause().isAutomatic() ? RETRYING : null;
    }

    /** Stuck: the job will not start by itself, someone must change something. */
    public boolean stuck() {
        return this == IMAGE_PULL_FAILED || this == VOLUME_MOUNT_FAILED;
    }
}
