package io.jobmon.events.ingest;

import io.jobmon.contracts.events.JobStatusChanged;
import io.jobmon.events.k8s.EventView;
import io.jobmon.events.k8s.PodView;
import io.jobmon.events.status.JobModel;
import io.jobmon.events.status.Signal;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Applies a batch of records, in partition order, to the loaded state of its jobs: pods by resourceVersion,
 * events through the quota, signals, and the status transitions they cause; events about nodes are kept per node.
 * Pure: the caller loads and writes.
 */
public final class BatchApplier {

    private final Map<String, JobModel> jobs;
    private final EventQuota quota;
    private final Instant retentionStart;

    /**
     * @param jobs the batch's jobs, loaded (or fresh) by job id
     * @param retentionStart events created before it are used for status but not stored
     */
    public BatchApplier(Map<String, JobModel> jobs, EventQuota quota, Instant retentionStart) {
        this.jobs = jobs;
        this.quota = quota;
        this.retentionStart = retentionStart;
    }

    /** What a record did: nothing, stored something that does not move status, or changed the job's facts. */
    private enum Effect {
        NONE, STORED, FACT
    }

    /**
     * Applies the records and returns the writes: each transition, and at the end, per job, one pods-only record with
     * the latest state of every pod that changed after the job's last transition of the batch (a transition carries
     * every pod already). So a restart, a container that starts or a new node shows on the job's pods within one
     * batch, without a transition per pod change.
     */
    public BatchWrites apply(List<RawRecord> records) {
        BatchWrites out = new BatchWrites();
        Map<String, Map<String, PodView>> podsSinceTransition = new LinkedHashMap<>();
        Map<String, Instant> lastPodTime = new LinkedHashMap<>();
        for (RawRecord r : records) {
            if (r.event() != null && r.event().aboutNode()) {
                // kept per node: a job's events include its nodes' (the query joins them by placement)
                if (r.event().createdAt().isBefore(retentionStart)) {
                    out.expired++;
                } else {
                    out.nodeEvent(r.cluster(), r.event());
                    out.stored++;
                }
                continue;
            }
            if (r.jobId() == null) {
                out.unattributed++;
                continue;
            }
            JobModel job = jobs.computeIfAbsent(r.jobId(), id -> JobModel.fresh(id, r.cluster()));
            Effect effect = r.pod() != null ? applyPod(job, r, out, podsSinceTransition) : applyEvent(job, r, out);
            if (effect == Effect.NONE) {
                out.unchanged++;
                continue;
            }
            if (r.pod() != null) {
                lastPodTime.put(job.jobId(), r.kafkaTime());
            }
            out.stored++;
            // Status is derived from pods and signals only: an event that is neither cannot move it.
            JobStatusChanged t = effect == Effect.FACT ? job.transition(r.kafkaTime()) : null;
            if (t != null) {
                out.transitions.add(t);
                podsSinceTransition.remove(job.jobId());
            }
        }
        podsSinceTransition.forEach((jobId, changed) -> {
            JobStatusChanged update = jobs.get(jobId).podsUpdate(changed.values(), lastPodTime.get(jobId));
            if (update != null) {
                out.transitions.add(update);
                out.podUpdates++;
            }
        });
        return out;
    }

    private Effect applyPod(JobModel job, RawRecord r, BatchWrites out, Map<String, Map<String, PodView>> changed) {
        PodView stored = job.applyPod(r.cluster(), r.pod());
        if (stored == null) {
            return Effect.NONE;
        }
        out.pod(r.cluster(), stored);
        changed.computeIfAbsent(job.jobId(), k -> new LinkedHashMap<>())
                .put(stored.namespace() + "/" + stored.name(), stored);
        return Effect.FACT;
    }

    private Effect applyEvent(JobModel job, RawRecord r, BatchWrites out) {
        EventView e = r.event();
        boolean signal = Signal.matters(e) && job.applySignal(Signal.of(e));
        Effect stored = signal ? Effect.FACT : Effect.STORED;
        if (e.createdAt().isBefore(retentionStart)) {
            out.expired++;
            return signal ? Effect.FACT : Effect.NONE;
        }
        EventQuota.Decision d = quota.admit(job.jobId(), e);
        if (d instanceof EventQuota.Unchanged) {
            return signal ? Effect.FACT : Effect.NONE;
        }
        if (d instanceof EventQuota.Count) {
            out.counted++;
            return stored;
        }
        if (d instanceof EventQuota.Replace replace) {
            out.evict(r.cluster(), replace);
        }
        out.event(r.cluster(), job.jobId(), e);
        return stored;
    }
}
