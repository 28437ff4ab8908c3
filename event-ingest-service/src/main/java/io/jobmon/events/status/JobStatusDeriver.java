package io.jobmon.events.status;

import static io.jobmon.contracts.events.JobStatus.FAILED;
import static io.jobmon.contracts.events.JobStatus.PARTIALLY_PENDING;
import static io.jobmon.contracts.events.JobStatus.PENDING;
import static io.jobmon.contracts.events.JobStatus.QUEUED;
import static io.jobmon.contracts.events.JobStatus.RUNNING;
import static io.jobmon.contracts.events.JobStatus.STOPPED;

import io.jobmon.contracts.events.JobStatus;
import io.jobmon.events.k8s.PodView;
import io.jobmon.events.status.PodOutcome.Kind;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A job's status with its reason, from its pods and events: the mapping table of the README. Pure logic, no I/O.
 *
 * <p>Multi-pod jobs follow the worst meaningful pod: a failure first (the earliest one, since later failures of
 * a gang are usually its consequence; ABNORMAL before FAILED at the same instant), then a pod that cannot start,
 * then pods still waiting for a node, then pods starting; the job runs when every pod runs or has finished.
 */
public final class JobStatusDeriver {

    private static final Comparator<PodOutcome> EARLIEST = Comparator
            .comparing((PodOutcome o) -> o.derived().at(), Comparator.nullsLast(Comparator.naturalOrder()))
            .thenComparing(o -> o.derived().status() == JobStatus.ABNORMAL ? 0 : 1);

    private JobStatusDeriver() {
    }

    public static Derived derive(JobFacts facts) {
        List<PodOutcome> outcomes = new ArrayList<>();
        for (PodView pod : facts.pods()) {
            outcomes.add(PodClassifier.classify(pod, facts));
        }
        Derived jobFailure = jobLevelFailure(facts, outcomes);
        if (jobFailure != null) {
            return jobFailure;
        }
        PodOutcome failure = earliest(outcomes, Kind.FAILURE);
        if (failure != null) {
            return failure.derived();
        }
        boolean anyLive = outcomes.stream().anyMatch(o -> o.kind() != Kind.STOPPED && o.kind() != Kind.SUCCEEDED);
        boolean allSucceeded = !outcomes.isEmpty() && outcomes.stream().allMatch(o -> o.kind() == Kind.SUCCEEDED);
        if (facts.stopRequested() && !anyLive && !allSucceeded) {
            PodOutcome stopped = earliest(outcomes, Kind.STOPPED);
            return stopped != null ? stopped.derived()
                    : Derived.written(STOPPED, "Stopped", io.jobmon.contracts.i18n.Text.of("status.stopped"), null);
        }
        Signal quota = activeQuotaSignal(facts);
        if (outcomes.isEmpty()) {
            return quota != null ? queuedByQuota(quota, QUEUED) : Derived.of(PENDING, null, null, null);
        }
        return fromPods(outcomes, quota);
    }

    private static Derived fromPods(List<PodOutcome> outcomes, Signal quota) {
        if (outcomes.stream().allMatch(o -> o.kind() == Kind.SUCCEEDED) && quota == null) {
            return latest(outcomes).derived();
        }
        PodOutcome startFailure = earliest(outcomes, Kind.START_FAILURE);
        if (startFailure != null) {
            return startFailure.derived();
        }
        List<PodOutcome> waiting = outcomes.stream().filter(o -> o.kind() == Kind.UNSCHEDULED).toList();
        boolean someScheduled = outcomes.stream().anyMatch(o -> o.kind() != Kind.UNSCHEDULED);
        if (!waiting.isEmpty() || quota != null) {
            PodOutcome why = waiting.stream().filter(o -> o.derived().status() == QUEUED).findFirst()
                    .orElse(waiting.isEmpty() ? null : waiting.get(0));
            if (someScheduled) {
                if (why == null || why.derived().reason() == null) {
                    return quota != null ? queuedByQuota(quota, PARTIALLY_PENDING)
                            : Derived.of(PARTIALLY_PENDING, null, null, why.derived().at());
                }
                return why.derived().as(PARTIALLY_PENDING);
            }
            return why.derived().reason() == null && quota != null ? queuedByQuota(quota, QUEUED) : why.derived();
        }
        if (outcomes.stream().anyMatch(o -> o.kind() == Kind.STARTING)) {
            return earliest(outcomes, Kind.STARTING).derived();
        }
        PodOutcome crashLooping = outcomes.stream()
                .filter(o -> o.kind() == Kind.RUNNING && o.derived().reason() != null).findFirst().orElse(null);
        if (crashLooping != null) {
            return crashLooping.derived();
        }
        Instant since = outcomes.stream().filter(o -> o.kind() == Kind.RUNNING).map(o -> o.derived().at())
                .filter(t -> t != null).max(Comparator.naturalOrder()).orElse(null);
        return Derived.of(RUNNING, null, null, since);
    }

    /** The batch/v1 Job itself gave up: backoff limit or active deadline. */
    private static Derived jobLevelFailure(JobFacts facts, List<PodOutcome> outcomes) {
        Signal deadline = facts.jobSignal("DeadlineExceeded");
        if (deadline != null) {
            return Derived.of(FAILED, "DeadlineExceeded", deadline.message(), deadline.time());
        }
        Signal backoff = facts.jobSignal("BackoffLimitExceeded");
        if (backoff != null) {
            PodOutcome cause = earliest(outcomes, Kind.FAILURE);
            return cause != null ? cause.derived()
                    : Derived.of(FAILED, "BackoffLimitExceeded", backoff.message(), backoff.time());
        }
        return null;
    }

    /**
     * A Job whose pods are refused by a ResourceQuota ({@code FailedCreate ... exceeded quota}) waits; it stops
     * waiting once a pod was created after the last refusal.
     */
    private static Signal activeQuotaSignal(JobFacts facts) {
        Signal s = facts.jobSignal("FailedCreate");
        if (s == null || s.message() == null || !s.message().contains("exceeded quota")) {
            return null;
        }
        for (PodView p : facts.pods()) {
            if (p.createdAt() != null && s.time() != null && p.createdAt().isAfter(s.time())) {
                return null;
            }
        }
        return s;
    }

    private static Derived queuedByQuota(Signal quota, JobStatus status) {
        return Derived.of(status, "ExceededQuota", quota.message(), quota.time());
    }

    private static PodOutcome earliest(List<PodOutcome> outcomes, Kind kind) {
        return outcomes.stream().filter(o -> o.kind() == kind).min(EARLIEST).orElse(null);
    }

    private static PodOutcome latest(List<PodOutcome> outcomes) {
        return outcomes.stream().max(Comparator.comparing((PodOutcome o) -> o.derived().at(),
                Comparator.nullsFirst(Comparator.naturalOrder()))).orElseThrow();
    }
}
