package io.jobmon.diagnosis.autofault;

import io.jobmon.contracts.events.JobSnapshot;
import io.jobmon.contracts.events.JobStatus;
import java.util.Optional;

/**
 * What automatic fault handling does once two consecutive diagnoses of a running job agreed on RESTART or TERMINATE
 * (diagnosis.md): TERMINATE is commanded; RESTART only if the job supports it and has retries left, otherwise it
 * is refused and the reason recorded. A job that stopped running or opted out meanwhile is skipped.
 */
public final class AutoFaultPolicy {

    /** COMMANDED: publish the command; REFUSED / SKIPPED: record why not. */
    public enum Outcome {
        COMMANDED, REFUSED, SKIPPED
    }

    public record Decision(Outcome outcome, String reason) {
    }

    private AutoFaultPolicy() {
    }

    /** Whether an action is one automatic fault handling acts on. */
    public static boolean actionable(String action, String category) {
        return ("RESTART".equals(action) || "TERMINATE".equals(action)) && !"HEALTHY".equals(category);
    }

    public static Decision decide(String action, String firstCategory, String secondCategory,
            Optional<JobSnapshot> snapshot) {
        if (snapshot.isEmpty()) {
            return new Decision(Outcome.SKIPPED, "the job is unknown or deleted");
        }
        JobSnapshot job = snapshot.get();
        if (job.status() != JobStatus.RUNNING) {
            return new Decision(Outcome.SKIPPED, "the job is " + job.status() + ", no longer RUNNING");
        }
        if (!job.autoFaultHandling()) {
            return new Decision(Outcome.SKIPPED, "the job no longer opts in to automatic fault handling");
        }
        String because = "two consecutive diagnoses: " + firstCategory
                + (firstCategory.equals(secondCategory) ? "" : ", then " + secondCategory);
        if ("RESTART".equals(action)) {
            if (!job.supportsRestart()) {
                return new Decision(Outcome.REFUSED, "restart not published: the job does not support restart ("
                        + because + ")");
            }
            if (job.retryCount() >= job.maxRetries()) {
                return new Decision(Outcome.REFUSED, "restart not published: retry limit reached (" + job.retryCount()
                        + " of " + job.maxRetries() + "; " + because + ")");
            }
        }
        return new Decision(Outcome.COMMANDED, because);
    }
}
