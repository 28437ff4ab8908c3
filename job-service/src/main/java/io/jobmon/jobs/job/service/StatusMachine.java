package io.jobmon.jobs.job.service;

import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.events.JobStatusChanged;
import io.jobmon.jobs.job.model.JobRecord;
import io.jobmon.jobs.job.repository.JobRepository.StatusUpdate;
import java.time.Instant;
import java.util.Objects;

/**
 * The job state machine: which cluster transitions apply, and which user actions each state allows.
 *
 * <p>Cluster transitions ({@code jobmon.job.status}) apply in sequence order: a transition whose sequence is not
 * higher than the last applied one is a duplicate or stale and changes nothing. A final job never changes again
 * (a restart is a new attempt, a new job). A STOPPING job was stopped by jobmon: what its cluster reports next is
 * the end of that stop, so a failure becomes STOPPED, a success stays SUCCEEDED, and non-final reports only
 * update its pods. One refinement of a final job: a FAILED job whose reason is the Job controller's
 * {@code BackoffLimitExceeded} takes the pod's own cause ({@code OOMKilled}, {@code Error}) when it arrives after.
 */
public final class StatusMachine {

    /** What a cluster transition does to a job. */
    public enum Effect {
        /** Duplicate or stale: nothing changes. */
        IGNORE,
        /** Newer information (pods, sequence) but the same status and reason, or a final job: no timeline entry. */
        TRACK,
        /** A new status or a new reason: a timeline entry. */
        CHANGE
    }

    public record Decision(Effect effect, StatusUpdate update) {
    }

    private StatusMachine() {
    }

    public static Decision onEvent(JobRecord job, JobStatusChanged event) {
        if (event.sequence() <= job.lastSequence()) {
            return new Decision(Effect.IGNORE, null);
        }
        if (refinesVerdict(job, event)) {
            // The Job controller's verdict reached jobmon before the pod's own cause (two watch streams): the cause
            // replaces the verdict as the reason; the job stays FAILED at the time it failed.
            String failure = VERDICT.equals(job.failureReason()) || job.failureReason() == null ? event.reason()
                    : job.failureReason();
            return new Decision(Effect.CHANGE, new StatusUpdate(job.id(), job.status(), event.reason(), event.message(),
                    event.exitCode() != null ? event.exitCode() : job.exitCode(), failure, job.firstEventAt(),
                    job.startedAt(), job.finishedAt(), event.sequence(), event.messageText()));
        }
        if (job.status().isFinal()) {
            // Its status stays, but later reports still carry its pods' last states (the other pods of a failed gang
            // end after the first one that failed the job): they are kept, and the sequence moves on.
            return new Decision(Effect.TRACK, new StatusUpdate(job.id(), job.status(), job.reason(), job.message(),
                    job.exitCode(), job.failureReason(), job.firstEventAt(), job.startedAt(), job.finishedAt(),
                    event.sequence(), job.messageText()));
        }
        JobStatus next = target(job.status(), event.status());
        // The cluster's clock, often cut to the second: a job that started (or ended) within the second of its
        // submission would read as started before it was submitted. Its times are never before the submission.
        Instant at = event.time().isBefore(job.submittedAt()) ? job.submittedAt() : event.time();
        boolean changed = next != job.status() || !Objects.equals(event.reason(), job.reason()) && next == event.status();
        // The end of a stop jobmon made keeps the stop's own reason and words (who stopped it, or which diagnoses of
        // automatic fault handling): the cluster only confirms it ("Stopped").
        boolean keepStop = job.status() == JobStatus.STOPPING && next == JobStatus.STOPPED && job.reason() != null;
        String reason = changed && !keepStop ? event.reason() : job.reason();
        String message = changed && !keepStop ? event.message() : job.message();
        io.jobmon.contracts.i18n.Text messageText = changed && !keepStop ? event.messageText() : job.messageText();
        Instant started = job.startedAt() == null && next == JobStatus.RUNNING ? at : job.startedAt();
        Instant finished = next.isFinal() ? at : null;
        String failure = job.failureReason();
        if (failure == null && (next == JobStatus.FAILED || next == JobStatus.ABNORMAL)) {
            failure = event.reason() != null ? event.reason() : next.name();
        }
        Integer exit = event.exitCode() != null ? event.exitCode() : job.exitCode();
        StatusUpdate update = new StatusUpdate(job.id(), next, reason, message, exit, failure,
                job.firstEventAt() == null ? at : job.firstEventAt(), started, finished, event.sequence(), messageText);
        return new Decision(changed ? Effect.CHANGE : Effect.TRACK, update);
    }

    /** The batch/v1 Job controller's verdict on a Job whose pods failed too often: a cause comes from its pods. */
    static final String VERDICT = "BackoffLimitExceeded";

    /** A FAILED job whose reason is the controller's verdict, reported FAILED again with a pod's cause. */
    static boolean refinesVerdict(JobRecord job, JobStatusChanged event) {
        return job.status() == JobStatus.FAILED && event.status() == JobStatus.FAILED && VERDICT.equals(job.reason())
                && event.reason() != null && !VERDICT.equals(event.reason());
    }

    /** The status a job takes when its cluster reports {@code reported}. */
    static JobStatus target(JobStatus current, JobStatus reported) {
        if (current != JobStatus.STOPPING) {
            return reported;
        }
        return switch (reported) {
            case SUCCEEDED -> JobStatus.SUCCEEDED;
            case FAILED, ABNORMAL, STOPPED -> JobStatus.STOPPED;
            default -> JobStatus.STOPPING;
        };
    }

    /** Stop is for a job that is waiting, running or abnormal; stopping a stopping job is a no-op. */
    public static boolean canStop(JobStatus s) {
        return !s.isFinal();
    }

    /** A waiting job holds no running pods: it is released at once. A running one goes through STOPPING. */
    public static JobStatus stopTarget(JobStatus s) {
        return s.isWaiting() ? JobStatus.STOPPED : JobStatus.STOPPING;
    }

    /** Only a job in a final state may be deleted: the record of a live job must stay. */
    public static boolean canDelete(JobStatus s) {
        return s.isFinal();
    }

    /** Resubmitting makes sense once the job ended, or when the platform broke it (ABNORMAL). */
    public static boolean canResubmit(JobStatus s) {
        return s.isFinal() || s == JobStatus.ABNORMAL;
    }
}
