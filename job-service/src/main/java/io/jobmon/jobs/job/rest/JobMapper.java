package io.jobmon.jobs.job.rest;

import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.events.PodSummary;
import io.jobmon.contracts.i18n.Text;
import io.jobmon.contracts.i18n.Texts;
import io.jobmon.jobs.config.JobsConfig;
import io.jobmon.contracts.api.Page;
import io.jobmon.jobs.job.model.JobRecord;
import io.jobmon.jobs.job.repository.CommandRepository;
import io.jobmon.jobs.job.model.JobStats;
import io.jobmon.jobs.job.model.SubState;
import io.jobmon.jobs.job.model.PodRecord;
import io.jobmon.jobs.job.model.TransitionRecord;
import io.jobmon.jobs.job.rest.dto.AttemptsView;
import io.jobmon.jobs.job.rest.dto.JobDetail;
import io.jobmon.jobs.job.rest.dto.JobRow;
import io.jobmon.jobs.job.rest.dto.PodView;
import io.jobmon.jobs.job.rest.dto.StatsView;
import io.jobmon.jobs.job.rest.dto.TimelineEntry;
import io.jobmon.jobs.job.service.QueryService;
import io.jobmon.jobs.support.Durations;
import io.jobmon.jobs.support.GpuSpec;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Job records to API views in the reader's language ({@link Texts}): durations live at {@code now} for unfinished
 * jobs, jobmon's own messages rendered from their catalogue keys, every reason with its stable code and a one-line
 * explanation, Kubernetes' words verbatim.
 */
@ApplicationScoped
public class JobMapper {

    private final Duration silentAfter;
    private final JobTexts texts;

    public JobMapper(JobsConfig config, JobTexts texts) {
        this.silentAfter = config.silentClusterAfter();
        this.texts = texts;
    }

    public Page<JobRow> rows(QueryService.Listed page, Texts t) {
        return new Page<>(page.rows().stream().map(j -> row(j, page.ref(), t)).toList(), page.nextCursor());
    }

    public JobRow row(JobRecord j, Instant now, Texts t) {
        Instant started = started(j);
        long queue = Durations.queueSeconds(j.submittedAt(), started, j.finishedAt(), now);
        long run = Durations.runSeconds(started, j.finishedAt(), now);
        Texts.Explained why = t.reason(j.reason(), j.message());
        Texts.Explained failure = texts.failure(j.failureReason(), t);
        SubState sub = SubState.of(j);
        return new JobRow(j.id(), j.name(), j.owner(), j.project(), j.cluster(), j.region(), j.queue(), j.status(),
                JobTexts.statusText(j.status(), t), name(sub), JobTexts.subStateText(j, sub, t), j.reason(), code(why),
                explanation(why), message(j, now, t), j.priority(),
                GpuSpec.format(j.replicas(), j.gpusPerReplica(), j.gpuType()), j.gpuCount(), j.submittedAt(), started,
                j.finishedAt(), j.updatedAt(), queue, Durations.human(queue, t), run, Durations.human(run, t),
                j.failureReason(), code(failure), explanation(failure), j.tags(), j.visibility(), j.attempt());
    }

    public JobDetail detail(QueryService.Detail d, Texts t) {
        JobRecord j = d.job();
        Instant now = Instant.now();
        Instant started = started(j);
        long queue = Durations.queueSeconds(j.submittedAt(), started, j.finishedAt(), now);
        long run = Durations.runSeconds(started, j.finishedAt(), now);
        int total = d.podsByPhase().values().stream().mapToInt(Integer::intValue).sum();
        Texts.Explained why = t.reason(j.reason(), j.message());
        Texts.Explained failure = texts.failure(j.failureReason(), t);
        SubState sub = SubState.of(j);
        return new JobDetail(j.id(), j.name(), j.owner(), j.tenant(), j.project(), j.cluster(), j.region(),
                j.namespace(), j.queue(), j.priority(), j.status(), JobTexts.statusText(j.status(), t),
                JobTexts.meaning(j.status(), t), JobTexts.nextStep(j.status(), t), name(sub),
                JobTexts.subStateText(j, sub, t), j.reason(), code(why), explanation(why), message(j, now, t),
                j.failureReason(), code(failure), explanation(failure), j.failureDiagnosisId(), j.exitCode(),
                GpuSpec.format(j.replicas(), j.gpusPerReplica(), j.gpuType()), j.gpuCount(), j.submittedAt(), started,
                j.finishedAt(), j.updatedAt(), queue, Durations.human(queue, t), run, Durations.human(run, t),
                new JobDetail.Pods(total, d.podsByPhase()), j.tags(), j.shares(), j.visibility(),
                new JobDetail.Retry(j.rootId(), j.attempt(), j.attemptCause(), j.diagnosisId(), j.previousId(),
                        j.clonedFrom(), j.supportsRestart(), j.autoFaultHandling(), j.maxRetries(), j.retryCount()),
                j.spec(), j.version(), d.warnings().stream().map(t::text).toList(), d.alertsFiring());
    }

    public Page<TimelineEntry> timeline(QueryService.Timeline page, Texts t) {
        return new Page<>(page.items().stream().map(r -> timeline(r, t)).toList(), page.nextCursor());
    }

    TimelineEntry timeline(TransitionRecord r, Texts t) {
        Texts.Explained why = t.reason(r.reason(), r.message());
        return new TimelineEntry(r.at(), TransitionRecord.CLUSTER.equals(r.source()) ? "cluster" : "jobmon",
                r.status(), JobTexts.statusText(r.status(), t), r.reason(), code(why), explanation(why),
                r.messageText() != null ? t.text(r.messageText()) : r.message(), r.exitCode(), r.source(),
                r.sequence());
    }

    public Page<PodView> pods(QueryService.Pods page, Texts t) {
        return new Page<>(page.items().stream().map(p -> pod(p, t)).toList(), page.nextCursor());
    }

    public AttemptsView attempts(QueryService.Attempts a, Texts t) {
        JobRecord root = a.chain().get(0);
        int used = a.chain().stream().mapToInt(JobRecord::retryCount).max().orElse(0);
        List<AttemptsView.Attempt> attempts = a.chain().stream().map(j -> new AttemptsView.Attempt(j.id(),
                j.attempt(), j.attemptCause(), j.diagnosisId(), j.previousId(), j.status(), j.reason(),
                j.failureReason(), j.submittedAt(), started(j), j.finishedAt())).toList();
        List<AttemptsView.Command> commands = a.commands().stream().map(c -> new AttemptsView.Command(
                c.commandId(), c.jobId(), c.kind(), c.diagnosisIds(), commandReason(c, t), c.outcome(),
                c.detailText() != null ? t.text(c.detailText()) : c.detail(), c.newJobId(), c.receivedAt())).toList();
        return new AttemptsView(root.id(), root.supportsRestart(), root.autoFaultHandling(), root.maxRetries(), used,
                Math.max(0, root.maxRetries() - used), attempts, commands);
    }

    /**
     * Why automatic fault handling asked for a command, in the reader's language, from what its diagnoses found
     * (the producer's own words only for diagnoses job-service never received).
     */
    static String commandReason(CommandRepository.CommandRecord c, Texts t) {
        List<String> found = c.categories().stream().distinct().toList();
        if (found.isEmpty()) {
            return c.reason();
        }
        return found.size() == 1 ? t.text(Text.of("command.reason.consecutive", Text.of("category." + found.get(0))))
                : t.text(Text.of("command.reason.consecutive-changed", Text.of("category." + found.get(0)),
                        Text.of("category." + found.get(found.size() - 1))));
    }

    public StatsView stats(JobStats s, Texts t) {
        return new StatsView(s.scope(), s.from(), s.to(), s.total(), s.byStatus(),
                s.queueP50() == null ? null : new StatsView.QueueTime(s.queueP50(), s.queueP95()),
                s.topFailureReasons().stream().map(r -> {
                    Texts.Explained e = texts.failure(r.reason(), t);
                    return new StatsView.Reason(r.reason(), code(e), explanation(e), r.count());
                }).toList());
    }

    /**
     * When the job started, never before its submission: a cluster reports times cut to the second, so a job
     * that started within the second of its submission would otherwise read as started before it was submitted.
     */
    static Instant started(JobRecord j) {
        return j.startedAt() != null && j.startedAt().isBefore(j.submittedAt()) ? j.submittedAt() : j.startedAt();
    }

    public PodView pod(PodRecord p, Texts t) {
        List<PodView.Condition> conditions;
        if (p.conditions() != null && !p.conditions().isEmpty()) {
            conditions = p.conditions().stream().map(c -> new PodView.Condition(c.type(),
                    JobTexts.conditionType(c.type(), t), c.status(), c.reason(), c.message(), c.lastTransitionTime()))
                    .toList();
        } else {
            boolean scheduled = p.node() != null && !p.node().isBlank();
            boolean ready = "Running".equals(p.phase()) && p.containers() != null && !p.containers().isEmpty()
                    && p.containers().stream().allMatch(c -> "running".equalsIgnoreCase(c.state()));
            conditions = List.of(
                    new PodView.Condition("PodScheduled", JobTexts.conditionType("PodScheduled", t), scheduled ? "True" : "False", null,
                            scheduled ? t.text("pod.condition.scheduled", p.node()) : t.text("pod.condition.not-scheduled"),
                            null),
                    new PodView.Condition("Ready", JobTexts.conditionType("Ready", t), ready ? "True" : "False", null,
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

    private static String name(SubState s) {
        return s == null ? null : s.name();
    }

    private static String code(Texts.Explained e) {
        return e == null ? null : e.code();
    }

    private static String explanation(Texts.Explained e) {
        return e == null ? null : e.explanation();
    }
}
