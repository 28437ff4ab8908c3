package io.jobmon.diagnosis.autofault;

import io.jobmon.contracts.events.JobSnapshot;
import io.jobmon.contracts.events.JobStatus;
import java.util.Optional;
import java.util.Set;

/**
 * What automatic fault handling does (diagnosis.md, seed 001's fault tolerance): once two consecutive diagnoses of a
 * running job agreed on RESTART or TERMINATE, TERMINATE is commanded, RESTART only if the job supports it and has
 * retries left, otherwise it is refused and the reason recorded; a job that stopped running or opted out meanwhile is
 * skipped. A job that ended (FAILED, or ABNORMAL) for a platform-side cause is restarted on its one JOB_FAILED
 * diagnosis, under the same conditions.
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

    /**
     * RESTART or TERMINATE only on the job's own evidence (or a node-wide fault it suffers): a decision whose
     * diagnoses quote evidence not shown to be the job's is skipped, saying which (issue #24).
     *
     * @param foreign each deciding diagnosis's {@code foreignEvidence} (null: its evidence is the job's own)
     */
    public static Optional<Decision> foreignEvidence(String... foreign) {
        for (String f : foreign) {
            if (f != null) {
                return Optional.of(new Decision(Outcome.SKIPPED, "the deciding evidence is not the job's own: " + f));
            }
        }
        return Optional.empty();
    }

    /** Whether an action is one automatic fault handling acts on. */
    public static boolean actionable(String action, String category) {
        return ("RESTART".equals(action) || "TERMINATE".equals(action)) && !"HEALTHY".equals(category);
    }

    /**
     * After the JOB_FAILED diagnosis of a job that ended: RESTART when its root cause is platform-side
     * ({@code platformCauses}) with at least {@code minConfidence}; empty when automatic fault handling has nothing to
     * decide (another cause, too unsure, the job did not opt in, or is unknown).
     */
    public static Optional<Decision> afterFailure(String category, double confidence, Set<String> platformCauses,
            double minConfidence, Optional<JobSnapshot> snapshot) {
        if (category == null || !platformCauses.contains(category) || confidence < minConfidence
                || snapshot.isEmpty() || !snapshot.get().autoFaultHandling()) {
            return Optional.empty();
        }
        JobSnapshot job = snapshot.get();
        String because = "the job ended for a platform-side cause: " + category;
        if (job.status() == JobStatus.SUCCEEDED || job.status() == JobStatus.STOPPING
                || job.status() == JobStatus.STOPPED) {
            return Optional.of(new Decision(Outcome.SKIPPED, "the job is " + job.status() + " (" + because + ")"));
        }
        if (!job.supportsRestart()) {
            return Optional.of(new Decision(Outcome.REFUSED, "restart not published: the job does not support restart ("
                    + because + ")"));
        }
        if (job.retryCount() >= job.maxRetries()) {
            return Optional.of(new Decision(Outcome.REFUSED, "restart not published: retry limit reached ("
                    + job.retryCount() + " of " + job.maxRetries() + "; " + because + ")"));
        }
        return Optional.of(new Decision(Outcome.COMMANDED, because));
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
