package io.jobmon.jobs.job.rest;

import io.jobmon.contracts.problem.ApiException;
import io.jobmon.contracts.problem.Problem.FieldError;
import io.jobmon.jobs.job.rest.dto.AttemptsView;
import io.jobmon.jobs.job.rest.dto.JobDetail;
import io.jobmon.jobs.job.rest.dto.JobRow;
import io.jobmon.contracts.api.Page;
import io.jobmon.jobs.job.rest.dto.PodView;
import io.jobmon.jobs.job.rest.dto.StatsView;
import io.jobmon.jobs.job.rest.dto.TimelineEntry;
import io.jobmon.jobs.job.service.ListQuery;
import io.jobmon.jobs.job.service.ListQueryParser;
import io.jobmon.jobs.job.service.QueryService;
import io.jobmon.jobs.job.service.TagRules;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Reading jobs: list, stats, detail, timeline, pods, attempts. */
@Path("/api/v1/jobs")
@Produces(MediaType.APPLICATION_JSON)
public class JobQueryResource {

    private final QueryService queries;
    private final CurrentCaller caller;
    private final TagRules tagRules;

    public JobQueryResource(QueryService queries, CurrentCaller caller, TagRules tagRules) {
        this.queries = queries;
        this.caller = caller;
        this.tagRules = tagRules;
    }

    /** The job list: scope mine (default), shared, project or all (admins), filters, sort, keyset paging. */
    @GET
    public Uni<Page<JobRow>> list(@QueryParam("scope") String scope, @QueryParam("name") String name,
            @QueryParam("status") List<String> status, @QueryParam("tag") List<String> tag,
            @QueryParam("project") String project, @QueryParam("cluster") String cluster,
            @QueryParam("region") String region, @QueryParam("owner") String owner,
            @QueryParam("submittedFrom") String submittedFrom, @QueryParam("submittedTo") String submittedTo,
            @QueryParam("sort") String sort, @QueryParam("limit") String limit, @QueryParam("cursor") String cursor) {
        ListQuery q = ListQueryParser.parse(new ListQueryParser.Params(scope, name, status, tag, project, cluster,
                region, owner, submittedFrom, submittedTo, sort, limit, cursor), tagRules);
        return queries.list(caller.get(), q);
    }

    /** Counts by status, queue-time p50/p95 and top failure reasons of jobs submitted in [from, to) (default 7 days). */
    @GET
    @Path("/stats")
    public Uni<StatsView> stats(@QueryParam("scope") String scope, @QueryParam("from") String from,
            @QueryParam("to") String to) {
        List<FieldError> errors = new ArrayList<>();
        ListQuery.Scope s = ListQueryParser.enumOf(ListQuery.Scope.class, scope, ListQuery.Scope.mine, "scope", errors);
        Instant end = time(to, "to", errors);
        end = end == null ? Instant.now() : end;
        Instant start = time(from, "from", errors);
        start = start == null ? end.minus(Duration.ofDays(7)) : start;
        if (!start.isBefore(end)) {
            errors.add(new FieldError("from", "must be before 'to'"));
        }
        if (!errors.isEmpty()) {
            throw ApiException.badRequest("invalid stats parameters", errors);
        }
        return queries.stats(caller.get(), s, start, end);
    }

    @GET
    @Path("/{id}")
    public Uni<JobDetail> detail(@PathParam("id") String id) {
        return queries.detail(caller.get(), id);
    }

    @GET
    @Path("/{id}/timeline")
    public Uni<List<TimelineEntry>> timeline(@PathParam("id") String id) {
        return queries.timeline(caller.get(), id);
    }

    /** Pods by name, {@code limit} (default 50, max 500) at a time. */
    @GET
    @Path("/{id}/pods")
    public Uni<Page<PodView>> pods(@PathParam("id") String id, @QueryParam("cursor") String cursor,
            @QueryParam("limit") String limit) {
        List<FieldError> errors = new ArrayList<>();
        int n = ListQueryParser.limit(limit, errors);
        if (!errors.isEmpty()) {
            throw ApiException.badRequest("invalid parameters", errors);
        }
        return queries.pods(caller.get(), id, cursor == null || cursor.isBlank() ? null : cursor, n);
    }

    @GET
    @Path("/{id}/attempts")
    public Uni<AttemptsView> attempts(@PathParam("id") String id) {
        return queries.attempts(caller.get(), id);
    }

    private static Instant time(String raw, String field, List<FieldError> errors) {
        if (raw == null || raw.isBlank()) {
            return null;
        }
        try {
            return Instant.parse(raw);
        } catch (RuntimeException e) {
            errors.add(new FieldError(field, "must be an RFC 3339 UTC time"));
            return null;
        }
    }
}
