package io.jobmon.jobs.job.rest;

import io.jobmon.contracts.events.JobStatus;
import io.jobmon.jobs.job.model.JobRecord;
import io.jobmon.jobs.job.model.PodRecord;
import io.jobmon.jobs.job.model.TransitionRecord;
import io.jobmon.jobs.job.rest.dto.JobDetail;
import io.jobmon.jobs.job.rest.dto.JobRow;
import io.jobmon.jobs.job.rest.dto.PodView;
import io.jobmon.jobs.job.rest.dto.TimelineEntry;
import io.jobmon.jobs.support.Durations;
import io.jobmon.jobs.support.GpuSpec;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Job records to API views. Durations are computed at {@code now} (live for unfinished jobs). */
public final class JobMapper {

    private JobMapper() {
    }

    public static JobRow row(JobRecord j, Instant now) {
        long queue = Durations.queueSeconds(j.submittedAt(), j.startedAt(), j.finishedAt(), now);
        long run = Durations.runSeconds(j.startedAt(), j.finishedAt(), now);
        return new JobRow(j.id(), j.name(), j.owner(), j.project(), j.cluster(), j.region(), j.queue(), j.status(),
                subState(j), j.reason(), j.message(), j.priority(), GpuSpec.format(j.replicas(), j.gpusPerReplica(),
                        j.gpuType()), j.gpuCount(), j.submittedAt(), j.startedAt(), j.finishedAt(), queue,
                Durations.human(queue), run, Durations.human(run), j.failureReason(), j.tags(), j.visibility(),
                j.attempt());
    }

    public static JobDetail detail(JobRecord j, Map<String, Integer> podsByPhase, List<String> warnings, Instant now) {
        long queue = Durations.queueSeconds(j.submittedAt(), j.startedAt(), j.finishedAt(), now);
        long run = Durations.runSeconds(j.startedAt(), j.finishedAt(), now);
        int total = podsByPhase.values().stream().mapToInt(Integer::intValue).sum();
        return new JobDetail(j.id(), j.name(), j.owner(), j.tenant(), j.project(), j.cluster(), j.region(),
                j.namespace(), j.queue(), j.priority(), j.status(), subState(j), j.reason(), j.message(),
                j.failureReason(), j.failureDiagnosisId(), j.exitCode(),
                GpuSpec.format(j.replicas(), j.gpusPerReplica(), j.gpuType()), j.gpuCount(), j.submittedAt(),
                j.startedAt(), j.finishedAt(), queue, Durations.human(queue), run, Durations.human(run),
                new JobDetail.Pods(total, podsByPhase), j.tags(), j.shares(), j.visibility(),
                new JobDetail.Retry(j.rootId(), j.attempt(), j.attemptCause(), j.diagnosisId(), j.previousId(),
                        j.clonedFrom(), j.supportsRestart(), j.autoFaultHandling(), j.maxRetries(), j.retryCount()),
                j.spec(), j.version(), warnings);
    }

    public static TimelineEntry timeline(TransitionRecord t) {
        return new TimelineEntry(t.at(), t.status(), t.reason(), t.message(), t.exitCode(), t.source(), t.sequence());
    }

    public static PodView pod(PodRecord p) {
        List<PodView.Condition> conditions;
        if (p.conditions() != null && !p.conditions().isEmpty()) {
            conditions = p.conditions().stream().map(c -> new PodView.Condition(c.type(), c.status(), c.reason(),
                    c.message(), c.lastTransitionTime())).toList();
        } else {
            boolean scheduled = p.node() != null && !p.node().isBlank();
            boolean ready = "Running".equals(p.phase()) && p.containers() != null && !p.containers().isEmpty()
                    && p.containers().stream().allMatch(c -> "running".equalsIgnoreCase(c.state()));
            conditions = List.of(
                    new PodView.Condition("PodScheduled", scheduled ? "True" : "False", null, null, null),
                    new PodView.Condition("Ready", ready ? "True" : "False", null, null, null));
        }
        return new PodView(p.name(), p.namespace(), p.node(), p.phase(), p.reason(), conditions, p.containers(),
                p.updatedAt());
    }

    /** An automatic attempt that has not started yet is RETRYING (architecture.md, sub-states). */
    static String subState(JobRecord j) {
        return j.attemptCause().isAutomatic() && j.status().isWaiting() ? "RETRYING"
                : j.status() == JobStatus.STOPPING && "Restarting".equals(j.reason()) ? "RESTARTING" : null;
    }
}
