package io.jobmon.jobs.job.rest;

import io.jobmon.contracts.api.Page;
import io.jobmon.contracts.problem.ApiException;
import io.jobmon.contracts.problem.Problem.FieldError;
import io.jobmon.contracts.i18n.I18n;
import io.jobmon.contracts.i18n.Texts;
import io.jobmon.jobs.job.model.ListQuery;
import io.jobmon.jobs.job.rest.dto.AttemptsView;
import io.jobmon.jobs.job.rest.dto.JobStatusInfo;
import io.jobmon.jobs.job.rest.dto.JobDetail;
import io.jobmon.jobs.job.rest.dto.JobRow;
import io.jobmon.jobs.job.rest.dto.PodView;
import io.jobmon.jobs.job.rest.dto.StatsView;
import io.jobmon.jobs.job.rest.dto.TimelineEntry;
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
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Reading jobs: list, stats, detail, timeline, pods, attempts. */
@Path("/api/v1/jobs")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "jobs")
public class JobQueryResource {

    private static final String STATUSES = "PENDING, QUEUED, PARTIALLY_PENDING, RUNNING, SUCCEEDED, FAILED, ABNORMAL, "
            + "STOPPING, STOPPED";

    private final QueryService queries;
    private final CurrentCaller caller;
    private final TagRules tagRules;
    private final JobMapper mapper;
    private final JobTexts texts;
    private final I18n i18n;

    public JobQueryResource(QueryService queries, CurrentCaller caller, TagRules tagRules, JobMapper mapper,
            JobTexts texts, I18n i18n) {
        this.queries = queries;
        this.caller = caller;
        this.tagRules = tagRules;
        this.mapper = mapper;
        this.texts = texts;
        this.i18n = i18n;
    }

    /** The job list: scope mine (default), shared, project or all (admins), filters, sort, keyset paging. */
    @GET
    @Operation(summary = "The job list (作业监控, 任务列表): a tab by scope, filters, sort, keyset pages; 403 for "
            + "scope=all without the admin role")
    public Uni<Page<JobRow>> list(
            @Parameter(description = "mine (default): the caller's jobs; shared: shared with the caller (被分享任务); "
                    + "project: PROJECT-visible jobs of the caller's project groups (查看全部); all: the tenant (admins)",
                    schema = @Schema(enumeration = {"mine", "shared", "project", "all"}))
            @QueryParam("scope") String scope,
            @Parameter(description = "a substring of the job's name (any case), or a job id")
            @QueryParam("name") String name,
            @Parameter(description = "repeatable (or comma-separated): any of " + STATUSES)
            @QueryParam("status") List<String> status,
            @Parameter(description = "repeatable: jobs carrying every tag named") @QueryParam("tag") List<String> tag,
            @QueryParam("project") String project, @QueryParam("cluster") String cluster,
            @QueryParam("region") String region, @QueryParam("owner") String owner,
            @Parameter(description = "RFC 3339, inclusive") @QueryParam("submittedFrom") String submittedFrom,
            @Parameter(description = "RFC 3339, exclusive") @QueryParam("submittedTo") String submittedTo,
            @Parameter(description = "field[:asc|desc], default submittedAt:desc; "
                    + "priority orders LOW < NORMAL < HIGH, updatedAt the last change of the job or its pods", schema = @Schema(enumeration = {
                    "submittedAt", "submittedAt:asc", "submittedAt:desc", "name", "name:asc", "name:desc", "status",
                    "status:asc", "status:desc", "queueSeconds", "queueSeconds:asc", "queueSeconds:desc",
                    "runSeconds", "runSeconds:asc", "runSeconds:desc", "updatedAt", "updatedAt:asc", "updatedAt:desc",
                    "priority", "priority:asc", "priority:desc"}))
            @QueryParam("sort") String sort,
            @Parameter(description = "1..500, default 50", schema = @Schema(type = SchemaType.INTEGER,
                    minimum = "1", maximum = "500", defaultValue = "50")) @QueryParam("limit") String limit,
            @Parameter(description = "nextCursor of the previous page") @QueryParam("cursor") String cursor) {
        ListQuery q = ListQueryParser.parse(new ListQueryParser.Params(scope, name, status, tag, project, cluster,
                region, owner, submittedFrom, submittedTo, sort, limit, cursor), tagRules);
        Texts t = i18n.forRequest();
        return queries.list(caller.get(), q).map(page -> mapper.rows(page, t));
    }

    /** Counts by status, queue-time p50/p95 and top failure reasons of jobs submitted in [from, to) (default 7 days). */
    @GET
    @Path("/stats")
    @Operation(summary = "Counts by status, queue-time percentiles and top failure reasons of the jobs submitted in "
            + "[from, to) (default the last 7 days)")
    public Uni<StatsView> stats(
            @Parameter(schema = @Schema(enumeration = {"mine", "shared", "project", "all"}))
            @QueryParam("scope") String scope,
            @Parameter(description = "RFC 3339") @QueryParam("from") String from,
            @Parameter(description = "RFC 3339") @QueryParam("to") String to) {
        List<FieldError> errors = new ArrayList<>();
        ListQuery.Scope s = ListQueryParser.enumOf(ListQuery.Scope.class, scope, ListQuery.Scope.mine, "scope", errors);
        Instant end = time(to, "to", errors);
        end = end == null ? Instant.now() : end;
        Instant start = time(from, "from", errors);
        start = start == null ? end.minus(Duration.ofDays(7)) : start;
        if (!start.isBefore(end)) {
            errors.add(FieldError.of("from", "field.before", "to"));
        }
        if (!errors.isEmpty()) {
            throw ApiException.badRequest(errors);
        }
        Texts t = i18n.forRequest();
        return queries.stats(caller.get(), s, start, end).map(st -> mapper.stats(st, t));
    }

    @GET
    @Path("/{id}")
    @Operation(summary = "One job: spec, status with reason and message, times, GPUs, pods by phase, tags, shares, "
            + "visibility, retry information")
    public Uni<JobDetail> detail(@PathParam("id") String id) {
        Texts t = i18n.forRequest();
        return queries.detail(caller.get(), id).map(d -> mapper.detail(d, t));
    }

    /** Every status with what it means and what to do, in the reader's language (the console's legend). */
    @GET
    @Path("/statuses")
    @Operation(summary = "Every job status with its text, what it means and what its owner can do next, in the "
            + "reader's language")
    public Page<JobStatusInfo> statuses() {
        return Page.last(texts.statuses(i18n.forRequest()));
    }

    /** {@code limit} (default 50, max 500) transitions at a time, in the order they happened. */
    @GET
    @Path("/{id}/timeline")
    @Operation(summary = "The job's lifecycle: every status transition with time (and whose clock it is), reason and "
            + "message, in the order it happened")
    public Uni<Page<TimelineEntry>> timeline(@PathParam("id") String id,
            @Parameter(description = "nextCursor of the previous page") @QueryParam("cursor") String cursor,
            @Parameter(description = "1..500, default 50", schema = @Schema(type = SchemaType.INTEGER,
                    minimum = "1", maximum = "500", defaultValue = "50")) @QueryParam("limit") String limit) {
        int n = limit(limit);
        Texts t = i18n.forRequest();
        return queries.timeline(caller.get(), id, blankToNull(cursor), n).map(page -> mapper.timeline(page, t));
    }

    /** Pods by name, {@code limit} (default 50, max 500) at a time. */
    @GET
    @Path("/{id}/pods")
    @Operation(summary = "The job's pods by name: phase, node, conditions, containers (state, reason, exit code, "
            + "restarts, how the last run ended)")
    public Uni<Page<PodView>> pods(@PathParam("id") String id,
            @Parameter(description = "nextCursor of the previous page") @QueryParam("cursor") String cursor,
            @Parameter(description = "1..500, default 50", schema = @Schema(type = SchemaType.INTEGER,
                    minimum = "1", maximum = "500", defaultValue = "50")) @QueryParam("limit") String limit) {
        int n = limit(limit);
        Texts t = i18n.forRequest();
        return queries.pods(caller.get(), id, blankToNull(cursor), n).map(page -> mapper.pods(page, t));
    }

    @GET
    @Path("/{id}/attempts")
    @Operation(summary = "The fault-tolerance chain (容错详情): attempts, the cause of each retry, commands of "
            + "automatic fault handling and what came of them")
    public Uni<AttemptsView> attempts(@PathParam("id") String id) {
        Texts t = i18n.forRequest();
        return queries.attempts(caller.get(), id).map(a -> mapper.attempts(a, t));
    }

    private static int limit(String raw) {
        List<FieldError> errors = new ArrayList<>();
        int n = ListQueryParser.limit(raw, errors);
        if (!errors.isEmpty()) {
            throw ApiException.badRequest(errors);
        }
        return n;
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }

    private static Instant time(String raw, String field, List<FieldError> errors) {
        if (raw == null || raw.isBlank()) {
            return null;
        }
        try {
            return Instant.parse(raw);
        } catch (RuntimeException e) {
            errors.add(FieldError.of(field, "field.time"));
            return null;
        }
    }
}
