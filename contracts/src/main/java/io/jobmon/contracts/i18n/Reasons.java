package io.jobmon.contracts.i18n;

import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every reason a user meets on a job — Kubernetes' own ({@code FailedScheduling}, {@code OOMKilled}...) and the
 * ones jobmon writes ({@code Submitted}, {@code SubmitFailed}...) — mapped to a stable, language-independent
 * {@code reasonCode} ({@code unschedulable}, {@code out-of-memory}...) that a client may switch on, and whose
 * one-line explanation is the common catalogue's {@code reason.<code>} in the reader's language. Kubernetes'
 * message stays verbatim beside it. Several reasons share a code where they mean the same to a user
 * ({@code ErrImagePull} and {@code ImagePullBackOff}).
 */
public final class Reasons {

    /** Catalogue key prefix of the explanations. */
    public static final String KEY_PREFIX = "reason.";

    private static final Map<String, String> CODES = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);

    static {
        // Scheduling and quota
        map("unschedulable", "Unschedulable", "FailedScheduling");
        map("quota-exceeded", "ExceededQuota", "exceeded quota");
        map("scheduled", "Scheduled");
        // Images
        map("image-pull-failed", "ImagePullBackOff", "ErrImagePull");
        map("image-name-invalid", "InvalidImageName");
        map("image-not-present", "ErrImageNeverPull");
        map("image-pulling", "Pulling");
        map("image-pulled", "Pulled");
        // Containers starting
        map("container-config-error", "CreateContainerConfigError");
        map("container-create-failed", "CreateContainerError", "RunContainerError", "StartError");
        map("starting", "ContainerCreating", "PodInitializing");
        map("container-created", "Created");
        map("container-started", "Started");
        map("sandbox-failed", "FailedCreatePodSandBox");
        map("volume-mount-failed", "FailedMount", "FailedAttachVolume");
        // Running and ending
        map("crash-loop", "CrashLoopBackOff", "Init:CrashLoopBackOff", "BackOff");
        map("out-of-memory", "OOMKilled", "OutOfmemory");
        map("container-error", "Error");
        map("completed", "Completed");
        map("probe-failed", "Unhealthy");
        map("container-killing", "Killing");
        map("kill-failed", "FailedKillPod");
        map("container-status-unknown", "ContainerStatusUnknown");
        map("deadline-exceeded", "DeadlineExceeded");
        map("backoff-limit-exceeded", "BackoffLimitExceeded");
        // Taken away by the platform
        map("evicted", "Evicted", "TaintManagerEviction");
        map("preempted", "Preempted");
        map("node-lost", "NodeLost", "NodeNotReady");
        map("pod-deleted", "PodDeleted");
        // The workload controller
        map("pod-created", "SuccessfulCreate");
        map("pod-removed", "SuccessfulDelete");
        map("pod-create-failed", "FailedCreate");
        map("failed", "Failed");
        // jobmon's own
        map("submitted", "Submitted");
        map("submit-failed", "SubmitFailed");
        map("stopped-by-user", "StoppedByUser");
        map("stopped", "Stopped");
        map("terminated-by-fault-handling", "TerminatedByFaultHandling");
        map("restarting", "Restarting");
    }

    private Reasons() {
    }

    private static void map(String code, String... reasons) {
        for (String r : reasons) {
            CODES.put(r, code);
        }
    }

    /**
     * The stable code of a reason, or null when the reason is unknown (or absent). {@code FailedCreate} of a pod a
     * ResourceQuota refused ({@code ... exceeded quota ...} in the message) is {@code quota-exceeded}.
     */
    public static String code(String reason, String message) {
        if (reason == null || reason.isBlank()) {
            return null;
        }
        if ("FailedCreate".equals(reason) && message != null && message.contains("exceeded quota")) {
            return "quota-exceeded";
        }
        return CODES.get(reason.trim());
    }

    /** Every code, for the catalogue's completeness test. */
    public static Collection<String> codes() {
        return new java.util.TreeSet<>(CODES.values());
    }

    /** Every reason the table knows. */
    public static Collection<String> known() {
        return CODES.keySet();
    }
}
