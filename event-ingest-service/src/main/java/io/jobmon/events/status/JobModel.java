package io.jobmon.events.status;

import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.events.JobStatusChanged;
import io.jobmon.contracts.events.PodSummary;
import io.jobmon.events.k8s.PodView;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One job while a batch is applied: its pods, its signals, its last published status and sequence. Records are
 * applied in partition order; after each one the status is derived again, and a change of status or reason
 * becomes a transition with the next sequence.
 */
public final class JobModel {

    private final String jobId;
    private String cluster;
    private final Map<String, PodView> pods;
    private final Map<String, Signal> signals;
    private boolean stopRequested;
    private JobStatus status;
    private String reason;
    private String message;
    private Integer exitCode;
    private long sequence;
    private boolean changed;

    public JobModel(String jobId, String cluster, Map<String, PodView> pods, Map<String, Signal> signals,
            boolean stopRequested, JobStatus status, String reason, String message, Integer exitCode, long sequence) {
        this.jobId = jobId;
        this.cluster = cluster;
        this.pods = new LinkedHashMap<>(pods);
        this.signals = new LinkedHashMap<>(signals);
        this.stopRequested = stopRequested;
        this.status = status;
        this.reason = reason;
        this.message = message;
        this.exitCode = exitCode;
        this.sequence = sequence;
    }

    public static JobModel fresh(String jobId, String cluster) {
        return new JobModel(jobId, cluster, Map.of(), Map.of(), false, null, null, null, null, 0);
    }

    /**
     * @return the pod as now stored, or null when the stored pod is as new or newer (by resourceVersion): the
     *         update changes nothing. A deletion without a final state keeps the last state known, deleted.
     */
    public PodView applyPod(String cluster, PodView pod) {
        String key = pod.namespace() + "/" + pod.name();
        PodView known = pods.get(key);
        if (known != null && known.resourceVersion() >= pod.resourceVersion()) {
            return null;
        }
        if (pod.finalStateUnknown() && known != null) {
            if (known.deleted()) {
                return null;
            }
            pod = known.gone(pod.resourceVersion());
        }
        this.cluster = cluster;
        pods.put(key, pod);
        changed = true;
        return pod;
    }

    /** @return false when a newer signal of the same object and reason is already known */
    public boolean applySignal(Signal signal) {
        Signal known = signals.get(signal.key());
        if (known != null && known.time() != null && signal.time() != null && !signal.time().isAfter(known.time())
                && java.util.Objects.equals(known.message(), signal.message())) {
            return false;
        }
        if (known != null && known.time() != null && signal.time() != null && signal.time().isBefore(known.time())) {
            return false;
        }
        signals.put(signal.key(), signal);
        changed = true;
        return true;
    }

    public void requestStop() {
        if (!stopRequested) {
            stopRequested = true;
            changed = true;
        }
    }

    /** The transition the job's facts now call for, if its status or reason changed; {@code now} when no time is known. */
    public JobStatusChanged transition(Instant now) {
        if (pods.isEmpty() && signals.isEmpty()) {
            return null;
        }
        Derived d = JobStatusDeriver.derive(new JobFacts(pods.values(), signals, stopRequested));
        if (d.sameAs(status, reason)) {
            message = d.message();
            return null;
        }
        status = d.status();
        reason = d.reason();
        message = d.message();
        exitCode = d.exitCode();
        sequence++;
        changed = true;
        return new JobStatusChanged(jobId, cluster, status, reason, message, exitCode, d.at() != null ? d.at() : now,
                sequence, summaries(pods.values()), d.messageText(), false);
    }

    /**
     * What changed in these pods since the job's last transition, as a pods-only record: it carries the last
     * transition's status and sequence and never moves the status; null before the job's first transition.
     */
    public JobStatusChanged podsUpdate(Collection<PodView> changedPods, Instant at) {
        if (status == null || changedPods.isEmpty()) {
            return null;
        }
        return JobStatusChanged.podsOnly(jobId, cluster, status, at, sequence, summaries(changedPods));
    }

    private static List<PodSummary> summaries(Collection<PodView> of) {
        List<PodSummary> out = new ArrayList<>();
        for (PodView p : of) {
            out.add(PodSummaries.of(p));
        }
        return out;
    }

    public String jobId() {
        return jobId;
    }

    public String cluster() {
        return cluster;
    }

    public Map<String, Signal> signals() {
        return signals;
    }

    public Map<String, PodView> pods() {
        return pods;
    }

    public boolean stopRequested() {
        return stopRequested;
    }

    public JobStatus status() {
        return status;
    }

    public String reason() {
        return reason;
    }

    public String message() {
        return message;
    }

    public Integer exitCode() {
        return exitCode;
    }

    public long sequence() {
        return sequence;
    }

    /** Something was learnt since the job was loaded (or last saved): its row must be written. */
    public boolean changed() {
        return changed;
    }

    /** Something else of the job (its event quota) changed: its row is written too, raising its version. */
    public void markChanged() {
        changed = true;
    }

    /** The job's row was written: what it learnt so far is stored. */
    public void markSaved() {
        changed = false;
    }
}
