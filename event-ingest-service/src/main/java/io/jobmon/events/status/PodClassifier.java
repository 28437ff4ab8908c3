package io.jobmon.events.status;

import static io.jobmon.contracts.events.JobStatus.ABNORMAL;
import static io.jobmon.contracts.events.JobStatus.FAILED;
import static io.jobmon.contracts.events.JobStatus.PENDING;
import static io.jobmon.contracts.events.JobStatus.QUEUED;
import static io.jobmon.contracts.events.JobStatus.RUNNING;
import static io.jobmon.contracts.events.JobStatus.STOPPED;
import static io.jobmon.contracts.events.JobStatus.SUCCEEDED;

import io.jobmon.contracts.i18n.Text;
import io.jobmon.events.k8s.ContainerView;
import io.jobmon.events.k8s.K8sTime;
import io.jobmon.events.k8s.PodView;
import io.jobmon.events.status.PodOutcome.Kind;
import java.time.Instant;
import java.util.Comparator;
import java.util.Set;

/** The status one pod gives its job on its own (the table of the README, per pod). */
final class PodClassifier {

    /** The seed's own words for a preemption (001): "was preempted by another task". */
    static final Text PREEMPTED_MESSAGE = Text.of("status.preempted");
    /** Waiting reasons of a scheduled pod that cannot start: the job stays pending with that reason. */
    static final Set<String> START_FAILURES = Set.of("ImagePullBackOff", "ErrImagePull", "InvalidImageName",
            "ErrImageNeverPull", "CreateContainerConfigError", "CreateContainerError", "RunContainerError");

    private PodClassifier() {
    }

    static PodOutcome classify(PodView pod, JobFacts facts) {
        PodOutcome disrupted = disruption(pod, facts);
        if (disrupted != null) {
            return disrupted;
        }
        if ("Succeeded".equals(pod.phase())) {
            return new PodOutcome(Kind.SUCCEEDED, Derived.of(SUCCEEDED, null, null, lastFinish(pod)));
        }
        if (pod.deletionTimestamp() != null || pod.deleted()) {
            return deletion(pod, facts);
        }
        ContainerView failed = firstFailed(pod);
        if (failed != null && ("Failed".equals(pod.phase()) || "Never".equals(pod.restartPolicy()))) {
            Text text = FailureText.terminated(failed);
            return new PodOutcome(Kind.FAILURE, new Derived(FAILED, failed.reason() == null ? "Error" : failed.reason(),
                    StatusTexts.english(text), text, failed.exitCode(), failed.finishedAt()));
        }
        if ("Failed".equals(pod.phase())) {
            return new PodOutcome(Kind.FAILURE, Derived.of(FAILED, pod.reason() == null ? "Failed" : pod.reason(),
                    pod.message(), lastFinish(pod)));
        }
        if (!pod.scheduled()) {
            return unscheduled(pod, facts);
        }
        return started(pod, facts);
    }

    /** Preemption, node loss and eviction: the pod was taken away by the platform. */
    private static PodOutcome disruption(PodView pod, JobFacts facts) {
        PodView.Condition target = pod.condition("DisruptionTarget");
        String cause = target != null && target.isTrue() ? target.reason() : null;
        Signal preempted = facts.podSignal(pod, "Preempted");
        if ("PreemptionByScheduler".equals(cause) || "PreemptionByKubeScheduler".equals(cause) || preempted != null) {
            Instant at = target != null ? target.lastTransitionTime() : preempted.time();
            return new PodOutcome(Kind.FAILURE, Derived.written(FAILED, "Preempted", PREEMPTED_MESSAGE, at));
        }
        if ("NodeLost".equals(pod.reason()) || "Unknown".equals(pod.phase()) || "DeletionByTaintManager".equals(cause)
                || facts.podSignal(pod, "TaintManagerEviction") != null) {
            String msg = pod.message() != null ? pod.message() : target != null && target.message() != null
                    ? target.message() : null;
            return new PodOutcome(Kind.FAILURE, msg != null
                    ? Derived.of(ABNORMAL, "NodeLost", msg, conditionTime(target))
                    : Derived.written(ABNORMAL, "NodeLost", Text.of("status.node-lost", pod.nodeName()),
                            conditionTime(target)));
        }
        Signal evicted = facts.podSignal(pod, "Evicted");
        if ("Evicted".equals(pod.reason()) || "EvictionByEvictionAPI".equals(cause) || "TerminationByKubelet".equals(cause)
                || evicted != null) {
            String msg = pod.message() != null ? pod.message() : evicted != null ? evicted.message()
                    : target != null ? target.message() : null;
            return new PodOutcome(Kind.FAILURE, msg != null
                    ? Derived.of(ABNORMAL, "Evicted", msg, conditionTime(target))
                    : Derived.written(ABNORMAL, "Evicted", Text.of("status.evicted"), conditionTime(target)));
        }
        return null;
    }

    /** A pod being deleted or gone, with no platform cause: a stop when job-service asked for one. */
    private static PodOutcome deletion(PodView pod, JobFacts facts) {
        if (facts.stopRequested()) {
            return new PodOutcome(pod.deleted() ? Kind.STOPPED : Kind.TERMINATING,
                    Derived.written(STOPPED, "Stopped", Text.of("status.stopped"), pod.deletionTimestamp()));
        }
        if (!pod.deleted()) {
            return new PodOutcome(Kind.TERMINATING, Derived.of(RUNNING, null, null, pod.deletionTimestamp()));
        }
        return new PodOutcome(Kind.FAILURE, Derived.written(ABNORMAL, "PodDeleted",
                Text.of("status.pod-deleted", pod.name()), pod.deletionTimestamp()));
    }

    private static PodOutcome unscheduled(PodView pod, JobFacts facts) {
        PodView.Condition scheduled = pod.condition("PodScheduled");
        Signal failed = facts.podSignal(pod, "FailedScheduling");
        if (failed != null) {
            return new PodOutcome(Kind.UNSCHEDULED, Derived.of(QUEUED, "FailedScheduling", failed.message(), failed.time()));
        }
        if (scheduled != null && "Unschedulable".equals(scheduled.reason())) {
            return new PodOutcome(Kind.UNSCHEDULED, Derived.of(QUEUED, "FailedScheduling", scheduled.message(),
                    scheduled.lastTransitionTime()));
        }
        return new PodOutcome(Kind.UNSCHEDULED, Derived.of(PENDING, null, null, pod.createdAt()));
    }

    private static PodOutcome started(PodView pod, JobFacts facts) {
        for (ContainerView c : pod.containers()) {
            if (c.waiting() && c.reason() != null && START_FAILURES.contains(c.reason())) {
                // ErrImagePull and ImagePullBackOff alternate while the kubelet retries: users see ImagePullBackOff.
                String reason = c.reason().equals("ErrImagePull") ? "ImagePullBackOff" : c.reason();
                return new PodOutcome(Kind.START_FAILURE, Derived.written(PENDING, reason, FailureText.waiting(c), null));
            }
        }
        boolean allRunning = !pod.containers().isEmpty() && pod.containers().stream()
                .allMatch(c -> c.init() ? c.terminated() && !c.failed() : c.running() || c.terminated());
        if ("Running".equals(pod.phase()) && allRunning) {
            for (ContainerView c : pod.containers()) {
                if (!c.init() && c.restartedAfterFailure()) {
                    return new PodOutcome(Kind.RUNNING, Derived.written(RUNNING, "CrashLoopBackOff",
                            FailureText.restarted(c),
                            c.startedAt()));
                }
            }
            return new PodOutcome(Kind.RUNNING, Derived.of(RUNNING, null, null, lastStart(pod)));
        }
        for (String mount : new String[] {"FailedMount", "FailedAttachVolume"}) {
            Signal s = facts.podSignal(pod, mount);
            if (s != null) {
                return new PodOutcome(Kind.START_FAILURE, Derived.of(PENDING, mount, s.message(), s.time()));
            }
        }
        for (ContainerView c : pod.containers()) {
            if (c.waiting() && "CrashLoopBackOff".equals(c.reason())) {
                String reason = c.init() ? "Init:CrashLoopBackOff" : "CrashLoopBackOff";
                return new PodOutcome(c.init() ? Kind.START_FAILURE : Kind.RUNNING,
                        Derived.written(c.init() ? PENDING : RUNNING, reason, FailureText.restarted(c), null));
            }
        }
        return new PodOutcome(Kind.STARTING, Derived.of(PENDING, null, null, scheduledAt(pod)));
    }

    private static ContainerView firstFailed(PodView pod) {
        return pod.containers().stream().filter(ContainerView::failed)
                .min(Comparator.comparing(ContainerView::finishedAt, Comparator.nullsLast(Comparator.naturalOrder())))
                .orElse(null);
    }

    private static Instant lastFinish(PodView pod) {
        Instant t = null;
        for (ContainerView c : pod.containers()) {
            t = K8sTime.latest(t, c.finishedAt());
        }
        return t;
    }

    private static Instant lastStart(PodView pod) {
        Instant t = null;
        for (ContainerView c : pod.containers()) {
            if (!c.init()) {
                t = K8sTime.latest(t, c.startedAt());
            }
        }
        return t;
    }

    private static Instant scheduledAt(PodView pod) {
        return conditionTime(pod.condition("PodScheduled"));
    }

    private static Instant conditionTime(PodView.Condition c) {
        return c == null ? null : c.lastTransitionTime();
    }
}
