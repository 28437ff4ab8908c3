package io.jobmon.events.ingest;

import io.jobmon.contracts.events.JobStatusChanged;
import io.jobmon.events.k8s.EventView;
import io.jobmon.events.status.JobModel;
import io.jobmon.events.status.Signal;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Applies a batch of records, in partition order, to the loaded state of its jobs: pods by resourceVersion,
 * events through the quota, signals, and the status transitions they cause. Pure: the caller loads and writes.
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

    public BatchWrites apply(List<RawRecord> records) {
        BatchWrites out = new BatchWrites();
        for (RawRecord r : records) {
            if (r.jobId() == null) {
                out.unattributed++;
                continue;
            }
            JobModel job = jobs.computeIfAbsent(r.jobId(), id -> JobModel.fresh(id, r.cluster()));
            boolean changed = r.pod() != null ? applyPod(job, r, out) : applyEvent(job, r, out);
            if (!changed) {
                out.unchanged++;
                continue;
            }
            out.stored++;
            JobStatusChanged t = job.transition(r.kafkaTime());
            if (t != null) {
                out.transitions.add(t);
            }
        }
        return out;
    }

    private boolean applyPod(JobModel job, RawRecord r, BatchWrites out) {
        if (!job.applyPod(r.cluster(), r.pod())) {
            return false;
        }
        out.pod(r.cluster(), r.pod());
        return true;
    }

    private boolean applyEvent(JobModel job, RawRecord r, BatchWrites out) {
        EventView e = r.event();
        boolean signal = Signal.matters(e) && job.applySignal(Signal.of(e));
        if (e.createdAt().isBefore(retentionStart)) {
            out.expired++;
            return signal;
        }
        EventQuota.Decision d = quota.admit(job.jobId(), e);
        if (d instanceof EventQuota.Unchanged) {
            return signal;
        }
        if (d instanceof EventQuota.Count) {
            out.counted++;
            return true;
        }
        if (d instanceof EventQuota.Replace replace) {
            out.evict(r.cluster(), replace);
        }
        out.event(r.cluster(), job.jobId(), e);
        return true;
    }
}
