package io.jobmon.jobs.job.service;

import io.jobmon.contracts.access.Caller;
import io.jobmon.contracts.access.Permission;
import io.jobmon.contracts.i18n.I18n;
import io.jobmon.contracts.i18n.Text;
import io.jobmon.contracts.i18n.Texts;
import io.jobmon.contracts.problem.ApiException;
import io.jobmon.jobs.job.model.JobRecord;
import io.jobmon.jobs.job.repository.CommandRepository;
import io.jobmon.jobs.job.repository.JobListRepository;
import io.jobmon.jobs.job.repository.JobRepository;
import io.jobmon.jobs.job.repository.JobStatsRepository;
import io.jobmon.jobs.job.repository.PodRepository;
import io.jobmon.jobs.job.repository.TransitionRepository;
import io.jobmon.jobs.job.rest.JobMapper;
import io.jobmon.jobs.job.rest.dto.AttemptsView;
import io.jobmon.jobs.job.rest.dto.JobDetail;
import io.jobmon.jobs.job.rest.dto.JobRow;
import io.jobmon.contracts.api.Page;
import io.jobmon.jobs.job.rest.dto.PodView;
import io.jobmon.jobs.job.rest.dto.StatsView;
import io.jobmon.jobs.job.rest.dto.TimelineEntry;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;

/** Everything a caller reads: the list, one job, its timeline, pods, attempts, and the stats. */
@ApplicationScoped
public class QueryService {

    private final Pool pool;
    private final JobRepository jobs;
    private final JobListRepository lists;
    private final PodRepository pods;
    private final TransitionRepository transitions;
    private final CommandRepository commands;
    private final JobStatsRepository stats;
    private final JobMapper mapper;
    private final I18n i18n;

    public QueryService(Pool pool, JobRepository jobs, JobListRepository lists, PodRepository pods,
            TransitionRepository transitions, CommandRepository commands, JobStatsRepository stats, JobMapper mapper,
            I18n i18n) {
        this.pool = pool;
        this.jobs = jobs;
        this.lists = lists;
        this.pods = pods;
        this.transitions = transitions;
        this.commands = commands;
        this.stats = stats;
        this.mapper = mapper;
        this.i18n = i18n;
    }

    public Uni<Page<JobRow>> list(Caller caller, ListQuery q) {
        Access.requireTenant(caller);
        requireScope(caller, q.scope());
        // The cursor keeps the reference time in milliseconds: the first page must use exactly that, or live
        // durations would differ by a fraction of a millisecond between pages and rows could repeat.
        Instant ref = q.cursor() != null ? Instant.ofEpochMilli(q.cursor().refMillis())
                : Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        Texts t = i18n.forRequest();
        return lists.page(caller, q, ref).map(page -> {
            List<JobRow> rows = page.rows().stream().map(j -> mapper.row(j, ref, t)).toList();
            String next = null;
            if (page.more()) {
                JobRecord last = page.rows().get(page.rows().size() - 1);
                String value = switch (q.sort().field()) {
                    case submittedAt -> last.submittedAt().toString();
                    case name -> last.name();
                    case status -> last.status().name();
                    default -> page.sortValues().get(page.sortValues().size() - 1);
                };
                next = new Cursor(q.sort().key(), value, last.id(), ref.toEpochMilli()).encode();
            }
            return new Page<>(rows, next);
        });
    }

    public Uni<JobDetail> detail(Caller caller, String id) {
        Texts t = i18n.forRequest();
        return visible(caller, id).chain(job -> pods.countByPhase(pool, id)
                .map(byPhase -> mapper.detail(job, byPhase, List.of(), Instant.now(), t)));
    }

    /** The detail of a job just created or changed (the caller is its owner or an admin). */
    public Uni<JobDetail> detailOf(JobRecord job, List<Text> warnings) {
        Texts t = i18n.forRequest();
        return pods.countByPhase(pool, job.id()).map(byPhase -> mapper.detail(job, byPhase,
                warnings.stream().map(t::text).toList(), Instant.now(), t));
    }

    /** Every transition of the job in time order, as one page ({@code {items}}, like every list). */
    public Uni<Page<TimelineEntry>> timeline(Caller caller, String id) {
        Texts t = i18n.forRequest();
        return visible(caller, id).chain(job -> transitions.timeline(pool, id))
                .map(list -> Page.last(list.stream().map(r -> mapper.timeline(r, t)).toList()));
    }

    /** Pods ordered by name, a page at a time (a job may have thousands). */
    public Uni<Page<PodView>> pods(Caller caller, String id, String cursor, int limit) {
        String after = cursor == null ? null : Cursor.decode(cursor, "pod:name").value();
        Texts t = i18n.forRequest();
        return visible(caller, id).chain(job -> pods.page(pool, id, after, limit + 1)).map(list -> {
            boolean more = list.size() > limit;
            List<PodView> items = list.stream().limit(limit).map(p -> mapper.pod(p, t)).toList();
            String next = more ? new Cursor("pod:name", items.get(items.size() - 1).name(), id, 0).encode() : null;
            return new Page<>(items, next);
        });
    }

    public Uni<AttemptsView> attempts(Caller caller, String id) {
        Texts t = i18n.forRequest();
        return visible(caller, id).chain(job -> jobs.chain(pool, job.rootId()).chain(chain -> commands
                .forJobs(pool, chain.stream().map(JobRecord::id).toList()).map(cmds -> {
                    JobRecord root = chain.get(0);
                    int used = chain.stream().mapToInt(JobRecord::retryCount).max().orElse(0);
                    List<AttemptsView.Attempt> attempts = chain.stream().map(j -> new AttemptsView.Attempt(j.id(),
                            j.attempt(), j.attemptCause(), j.diagnosisId(), j.previousId(), j.status(), j.reason(),
                            j.failureReason(), j.submittedAt(), j.startedAt(), j.finishedAt())).toList();
                    List<AttemptsView.Command> commandViews = cmds.stream().map(c -> new AttemptsView.Command(
                            c.commandId(), c.jobId(), c.kind(), c.diagnosisIds(), c.reason(), c.outcome(),
                            c.detailText() != null ? t.text(c.detailText()) : c.detail(), c.newJobId(),
                            c.receivedAt())).toList();
                    return new AttemptsView(root.id(), root.supportsRestart(), root.autoFaultHandling(),
                            root.maxRetries(), used, Math.max(0, root.maxRetries() - used), attempts, commandViews);
                })));
    }

    public Uni<StatsView> stats(Caller caller, ListQuery.Scope scope, Instant from, Instant to) {
        Access.requireTenant(caller);
        requireScope(caller, scope);
        return stats.stats(caller, scope, from, to);
    }

    private Uni<JobRecord> visible(Caller caller, String id) {
        return jobs.find(pool, id).map(job -> Access.require(caller, id, job, Permission.VIEW));
    }

    private static void requireScope(Caller caller, ListQuery.Scope scope) {
        if (scope == ListQuery.Scope.all && !caller.isAdmin()) {
            throw ApiException.forbidden(Text.of("job.forbidden.scope-all"));
        }
    }
}
