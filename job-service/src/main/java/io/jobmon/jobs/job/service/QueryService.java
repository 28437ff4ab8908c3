package io.jobmon.jobs.job.service;

import io.jobmon.contracts.access.Caller;
import io.jobmon.contracts.access.Permission;
import io.jobmon.contracts.i18n.Text;
import io.jobmon.contracts.problem.ApiException;
import io.jobmon.jobs.job.model.Cursor;
import io.jobmon.jobs.job.model.JobRecord;
import io.jobmon.jobs.job.model.JobStats;
import io.jobmon.jobs.job.model.ListQuery;
import io.jobmon.jobs.job.model.PodRecord;
import io.jobmon.jobs.job.model.TransitionRecord;
import io.jobmon.jobs.job.repository.CommandRepository;
import io.jobmon.jobs.job.repository.CommandRepository.CommandRecord;
import io.jobmon.jobs.job.repository.JobListRepository;
import io.jobmon.jobs.job.repository.JobRepository;
import io.jobmon.jobs.job.repository.JobStatsRepository;
import io.jobmon.jobs.job.repository.PodRepository;
import io.jobmon.jobs.job.repository.TransitionRepository;
import io.jobmon.jobs.alerts.FiringAlerts;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

/**
 * Everything a caller reads: the list, one job, its timeline, pods, attempts, and the stats — as records of the
 * job model, which the REST layer renders in the reader's language (resource → service → repository, one way).
 */
@ApplicationScoped
public class QueryService {

    /** A page of the list: rows, the next page's cursor (null on the last), the time live durations are at. */
    public record Listed(List<JobRecord> rows, String nextCursor, Instant ref) {
    }

    /**
     * One job with its pods by phase ({@code {Running=1998, Pending=2}}), the warnings of its creation and how many
     * alerts fire on it (null: Alertmanager not configured or unreachable).
     */
    public record Detail(JobRecord job, Map<String, Integer> podsByPhase, List<Text> warnings, Integer alertsFiring) {
    }

    /** A page of the timeline, in the order the transitions were applied. */
    public record Timeline(JobRecord job, List<TransitionRecord> items, String nextCursor) {
    }

    public record Pods(List<PodRecord> items, String nextCursor) {
    }

    /** A job's fault-tolerance chain, first attempt first, and the commands received for any of its attempts. */
    public record Attempts(List<JobRecord> chain, List<CommandRecord> commands) {
    }

    private static final String TIMELINE_CURSOR = "transition:id";

    private final Pool pool;
    private final JobRepository jobs;
    private final JobListRepository lists;
    private final PodRepository pods;
    private final TransitionRepository transitions;
    private final CommandRepository commands;
    private final JobStatsRepository stats;
    private final FiringAlerts alerts;

    public QueryService(Pool pool, JobRepository jobs, JobListRepository lists, PodRepository pods,
            TransitionRepository transitions, CommandRepository commands, JobStatsRepository stats,
            FiringAlerts alerts) {
        this.alerts = alerts;
        this.pool = pool;
        this.jobs = jobs;
        this.lists = lists;
        this.pods = pods;
        this.transitions = transitions;
        this.commands = commands;
        this.stats = stats;
    }

    public Uni<Listed> list(Caller caller, ListQuery q) {
        Access.requireTenant(caller);
        requireScope(caller, q.scope());
        // The cursor keeps the reference time in milliseconds: the first page must use exactly that, or live
        // durations would differ by a fraction of a millisecond between pages and rows could repeat.
        Instant ref = q.cursor() != null ? Instant.ofEpochMilli(q.cursor().refMillis())
                : Instant.now().truncatedTo(ChronoUnit.MILLIS);
        return lists.page(caller, q, ref).map(page -> {
            String next = null;
            if (page.more()) {
                JobRecord last = page.rows().get(page.rows().size() - 1);
                String value = switch (q.sort().field()) {
                    case submittedAt -> last.submittedAt().toString();
                    case updatedAt -> last.updatedAt().toString();
                    case name -> last.name();
                    case status -> last.status().name();
                    default -> page.sortValues().get(page.sortValues().size() - 1);
                };
                next = new Cursor(q.sort().key(), value, last.id(), ref.toEpochMilli()).encode();
            }
            return new Listed(page.rows(), next, ref);
        });
    }

    public Uni<Detail> detail(Caller caller, String id) {
        return visible(caller, id).chain(job -> detailOf(job, List.of()));
    }

    /** The detail of a job just created or changed (the caller is its owner or an admin). */
    public Uni<Detail> detailOf(JobRecord job, List<Text> warnings) {
        return Uni.combine().all().unis(pods.countByPhase(pool, job.id()), alerts.count(job.id())).asTuple()
                .map(t -> new Detail(job, t.getItem1(), warnings, t.getItem2().orElse(null)));
    }

    /** The job's transitions in the order they were applied, {@code limit} at a time. */
    public Uni<Timeline> timeline(Caller caller, String id, String cursor, int limit) {
        Long after = cursor == null ? null : cursorId(cursor);
        return visible(caller, id).chain(job -> transitions.timeline(pool, id, after, limit + 1).map(list -> {
            boolean more = list.size() > limit;
            List<TransitionRepository.Stored> page = more ? list.subList(0, limit) : list;
            String next = more ? new Cursor(TIMELINE_CURSOR, Long.toString(page.get(page.size() - 1).id()), id, 0)
                    .encode() : null;
            return new Timeline(job, page.stream().map(TransitionRepository.Stored::transition).toList(), next);
        }));
    }

    /** Pods ordered by name, a page at a time (a job may have thousands). */
    public Uni<Pods> pods(Caller caller, String id, String cursor, int limit) {
        String after = cursor == null ? null : Cursor.decode(cursor, "pod:name").value();
        return visible(caller, id).chain(job -> pods.page(pool, id, after, limit + 1)).map(list -> {
            boolean more = list.size() > limit;
            List<PodRecord> items = more ? list.subList(0, limit) : list;
            String next = more ? new Cursor("pod:name", items.get(items.size() - 1).name(), id, 0).encode() : null;
            return new Pods(items, next);
        });
    }

    public Uni<Attempts> attempts(Caller caller, String id) {
        return visible(caller, id).chain(job -> jobs.chain(pool, job.rootId()).chain(chain -> commands
                .forJobs(pool, chain.stream().map(JobRecord::id).toList()).map(cmds -> new Attempts(chain, cmds))));
    }

    public Uni<JobStats> stats(Caller caller, ListQuery.Scope scope, Instant from, Instant to) {
        Access.requireTenant(caller);
        requireScope(caller, scope);
        return stats.stats(caller, scope, from, to);
    }

    private Uni<JobRecord> visible(Caller caller, String id) {
        return jobs.find(pool, id).map(job -> Access.require(caller, id, job, Permission.VIEW));
    }

    private static long cursorId(String cursor) {
        try {
            return Long.parseLong(Cursor.decode(cursor, TIMELINE_CURSOR).value());
        } catch (NumberFormatException e) {
            throw io.jobmon.contracts.api.Cursors.invalid();
        }
    }

    private static void requireScope(Caller caller, ListQuery.Scope scope) {
        if (scope == ListQuery.Scope.all && !caller.isAdmin()) {
            throw ApiException.forbidden(Text.of("job.forbidden.scope-all"));
        }
    }
}
