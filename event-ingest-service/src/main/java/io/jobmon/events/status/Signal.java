package io.jobmon.events.status;

import io.jobmon.events.k8s.EventView;
import java.time.Instant;
import java.util.Set;

/**
 * The latest Event of a reason that matters for a job's status, about one of its pods or its Job.
 *
 * @param objectKind {@code Pod} or {@code Job}
 */
public record Signal(String objectKind, String objectName, String reason, String message, Instant time) {

    /** Event reasons the status mapping reads; every other event is stored and shown but does not move status. */
    public static final Set<String> REASONS = Set.of("FailedScheduling", "Preempted", "FailedMount",
            "FailedAttachVolume", "FailedCreate", "BackoffLimitExceeded", "DeadlineExceeded", "Evicted",
            "TaintManagerEviction");

    public static boolean matters(EventView e) {
        return e.reason() != null && REASONS.contains(e.reason()) && (e.aboutPod() || e.aboutJob());
    }

    public static Signal of(EventView e) {
        return new Signal(e.objectKind(), e.objectName(), e.reason(), e.message(), e.lastTime());
    }

    /** Signals are kept per object and reason: the newest one wins. */
    public String key() {
        return objectKind + "/" + objectName + "/" + reason;
    }
}
