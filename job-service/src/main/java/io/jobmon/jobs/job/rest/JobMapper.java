package io.jobmon.jobs.job.rest;

import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.events.PodSummary;
import io.jobmon.contracts.i18n.Text;
import io.jobmon.contracts.i18n.Texts;
import io.jobmon.jobs.config.JobsConfig;
import io.jobmon.jobs.job.model.JobRecord;
import io.jobmon.jobs.job.model.PodRecord;
import io.jobmon.jobs.job.model.TransitionRecord;
import io.jobmon.jobs.job.rest.dto.JobDetail;
import io.jobmon.jobs.job.rest.dto.JobRow;
import io.jobmon.jobs.job.rest.dto.PodView;
import io.jobmon.jobs.job.rest.dto.TimelineEntry;
import io.jobmon.jobs.support.Durations;
import io.jobmon.jobs.support.GpuSpec;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Job records to API views in the reader's language ({@link Texts}): durations live at {@code now} for unfinished
 * jobs, jobmon's own messages rendered from their catalogue keys, every reason with its stable code and a one-line
 * explanation, Kubernetes' words verbatim.
 */
@ApplicationScoped
public class JobMapper {

    private final Duration silentAfter;

    public JobMapper(JobsConfig config) {
        this.silentAfter = config.silentClusterAfter();
    }

    public JobRow row(JobRecord j, Instant now, Texts t) {
        long queue = Durations.queueSeconds(j.submittedAt(), j.startedAt(), j.finishedAt(), now);
        long run = Durations.runSeconds(j.startedAt(), j.finishedAt(), now);
        Texts.Explained why = t.reason(j.reason(), j.message());
        return new JobRow(j.id(), j.name(), j.owner(), j.project(), j.cluster(), j.region(), j.queue(), j.status(),
                statusText(j.status(), t), subState(j), j.reason(), code(why), explanation(why), message(j, now, t),
                j.priority(), GpuSpec.format(j.replicas(), j.gpusPerReplica(), j.gpuType()), j.gpuCount(),
                j.submittedAt(), j.startedAt(), j.finishedAt(), j.updatedAt(), queue, Durations.human(queue, t), run,
                Durations.human(run, t), j.failureReason(), j.tags(), j.visibility(), j.attempt());
    }

    public JobDetail detail(JobRecord j, Map<String, Integer> podsByPhase, List<String> warnings, Instant now,
            Texts t) {
        long queue = Durations.queueSeconds(j.submittedAt(), j.startedAt(), j.finishedAt(), now);
        long run = Durations.runSeconds(j.startedAt(), j.finishedAt(), now);
        int total = podsByPhase.values().stream().mapToInt(Integer::intValue).sum();
        Texts.Explained why = t.reason(j.reason(), j.message());
        Texts.Explained failure = t.reason(j.failureReason(), null);
        return new JobDetail(j.id(), j.name(), j.owner(), j.tenant(), j.project(), j.cluster(), j.region(),
                j.namespace(), j.queue(), j.priority(), j.status(), statusText(j.status(), t), subState(j), j.reason(),
                code(why), explanation(why), message(j, now, t), j.failureReason(), code(failure),
                j.failureDiagnosisId(), j.exitCode(), GpuSpec.format(j.replicas(), j.gpusPerReplica(), j.gpuType()),
                j.gpuCount(), j.submittedAt(), j.startedAt(), j.finishedAt(), j.updatedAt(), queue,
                Durations.human(queue, t), run, Durations.human(run, t), new JobDetail.Pods(total, podsByPhase),
                j.tags(), j.shares(), j.visibility(),
                new JobDetail.Retry(j.rootId(), j.attempt(), j.attemptCause(), j.diagnosisId(), j.previousId(),
                        j.clonedFrom(), j.supportsRestart(), j.autoFaultHandling(), j.maxRetries(), j.retryCount()),
                j.spec(), j.version(), warnings);
    }

    public TimelineEntry timeline(TransitionRecord r, Texts t) {
        Texts.Explained why = t.reason(r.reason(), r.message());
        return new TimelineEntry(r.at(), r.status(), statusText(r.status(), t), r.reason(), code(why),
                explanation(why), r.messageText() != null ? t.text(r.messageText()) : r.message(), r.exitCode(),
                r.source(), r.sequence());
    }

    public PodView pod(PodRecord p, Texts t) {
        List<PodView.Condition> conditions;
        if (p.conditions() != null && !p.conditions().isEmpty()) {
            conditions = p.conditions().stream().map(c -> new PodView.Condition(c.type(), c.status(), c.reason(),
                    c.message(), c.lastTransitionTime())).toList();
        } else {
            boolean scheduled = p.node() != null && !p.node().isBlank();
            boolean ready = "Running".equals(p.phase()) && p.containers() != null && !p.containers().isEmpty()
                    && p.containers().stream().allMatch(c -> "running".equalsIgnoreCase(c.state()));
            conditions = List.of(
                    new PodView.Condition("PodScheduled", scheduled ? "True" : "False", null,
                            scheduled ? t.text("pod.condition.scheduled", p.node()) : t.text("pod.condition.not-scheduled"),
                            null),
                    new PodView.Condition("Ready", ready ? "True" : "False", null,
                            t.text(ready ? "pod.condition.ready" : "pod.condition.not-ready"), null));
        }
        List<PodView.Container> containers = new ArrayList<>();
        for (PodSummary.ContainerSummary c : p.containers() == null ? List.<PodSummary.ContainerSummary>of()
                : p.containers()) {
            Texts.Explained why = t.reason(c.reason(), null);
            PodView.LastState last = null;
            if (c.lastState() != null) {
                Texts.Explained lastWhy = t.reason(c.lastState().reason(), null);
                last = new PodView.LastState(c.lastState().reason(), code(lastWhy), explanation(lastWhy),
                        c.lastState().exitCode(), c.lastState().finishedAt());
            }
            containers.add(new PodView.Container(c.name(), c.state(), c.reason(), code(why), explanation(why),
                    c.exitCode(), c.restartCount(), last));
        }
        Texts.Explained why = t.reason(p.reason(), null);
        return new PodView(p.name(), p.namespace(), p.node(), p.phase(), p.reason(), code(why), explanation(why),
                conditions, containers, p.updatedAt());
    }

    /**
     * The message in the reader's language: jobmon's own from its key, Kubernetes' verbatim; a job its cluster has
     * not reported on for {@code jobmon.jobs.silent-cluster-after} since its submission says so.
     */
    String message(JobRecord j, Instant now, Texts t) {
        Duration waited = Duration.between(j.submittedAt(), now);
        if (j.status() == JobStatus.PENDING && j.firstEventAt() == null && waited.compareTo(silentAfter) >= 0) {
            return t.text(Text.of("job.message.silent-cluster", j.cluster(), waited.toMinutes()));
        }
        return j.messageText() != null ? t.text(j.messageText()) : j.message();
    }

    static String statusText(JobStatus s, Texts t) {
        return s == null ? null : t.text("status." + s.name());
    }

    /** An automatic attempt that has not started yet is RETRYING (architecture.md, sub-states). */
    static String subState(JobRecord j) {
        return j.attemptCause().isAutomatic() && j.status().isWaiting() ? "RETRYING"
                : j.status() == JobStatus.STOPPING && "Restarting".equals(j.reason()) ? "RESTARTING" : null;
    }

    private static String code(Texts.Explained e) {
        return e == null ? null : e.code();
    }

    private static String explanation(Texts.Explained e) {
        return e == null ? null : e.explanation();
    }
}
