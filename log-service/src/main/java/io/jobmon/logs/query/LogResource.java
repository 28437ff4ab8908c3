package io.jobmon.logs.query;

import io.jobmon.contracts.access.Caller;
import io.jobmon.contracts.access.CallerFactory;
import io.jobmon.logs.config.LogsConfig;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** A job's log lines: time range, pod, container, keyword, regex, tail, paging both ways. */
@Path("/api/v1/jobs/{id}/logs")
@Tag(name = "logs")
public class LogResource {

    private final JobLogs jobLogs;
    private final ChunkQueries queries;
    private final SearchPool search;
    private final LogsConfig config;
    private final JsonWebToken token;

    private final Summaries summaries;

    public LogResource(JobLogs jobLogs, ChunkQueries queries, SearchPool search, LogsConfig config, JsonWebToken token,
            Summaries summaries) {
        this.summaries = summaries;
        this.jobLogs = jobLogs;
        this.queries = queries;
        this.search = search;
        this.config = config;
        this.token = token;
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "The job's log lines in time order (404 when the caller may not see the job, 410 once its logs"
            + " expired)")
    @APIResponse(responseCode = "200", description = "a page of lines, oldest first (tail: the last lines)", content = @Content(
            mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = LogPage.class)))
    @APIResponse(responseCode = "410", description = "the job's logs were removed (retention)")
    @APIResponse(responseCode = "422", description = "the search did not finish within query.search-deadline")
    public LogPage lines(@PathParam("id") String id,
            @Parameter(description = "user or system; absent: both") @QueryParam("type") String type,
            @QueryParam("pod") String pod, @QueryParam("container") String container, @BeanParam LinesParams params) {
        LogQuery lq = params.query(type, pod, container, config);
        Caller caller = CallerFactory.fromToken(token);
        // the whole request under the user's turn: their excess requests wait before touching the database
        return search.run(caller, () -> page(caller, id, lq));
    }

    private LogPage page(Caller caller, String id, LogQuery lq) {
        JobLogs.Job job = jobLogs.require(caller, id);
        Scope scope = jobLogs.scope(job, lq.user(), lq.system(), lq.pod(), lq.container());
        return Pages.read(queries, search.executor(caller), config, scope, lq, job.retention());
    }

    @GET
    @Path("/pods")
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Pods and containers that have logs, and the system sources of the job's nodes, with first and"
            + " last line time, lines and bytes")
    @APIResponse(responseCode = "200", description = "the sources of the job's logs", content = @Content(
            mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = PodsView.class)))
    @APIResponse(responseCode = "410", description = "the job's logs were removed (retention)")
    public PodsView pods(@PathParam("id") String id) {
        JobLogs.Job job = jobLogs.require(CallerFactory.fromToken(token), id);
        Scope scope = jobLogs.scope(job, false, true, null, null);
        return new PodsView(summaries.pods(id), JobLogs.retrying(() -> summaries.system(scope)), job.retention());
    }

    /** How many lines a selection (a search) holds. */
    @Schema(requiredProperties = {"lines", "chunksRead"})
    public record CountView(long lines, int chunksRead) {
    }

    @GET
    @Path("/count")
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "How many lines the selection holds: a search's number of matches over the whole range")
    @APIResponse(responseCode = "200", description = "the number of lines", content = @Content(
            mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = CountView.class)))
    @APIResponse(responseCode = "410", description = "the job's logs were removed (retention)")
    @APIResponse(responseCode = "422", description = "the search did not finish within query.search-deadline")
    public CountView count(@PathParam("id") String id, @QueryParam("type") String type, @QueryParam("pod") String pod,
            @QueryParam("container") String container, @QueryParam("from") String from, @QueryParam("to") String to,
            @QueryParam("q") String q, @QueryParam("ignoreCase") String ignoreCase, @QueryParam("regex") String regex) {
        LogQuery lq = LogQuery.of(type, pod, container, from, to, q, ignoreCase, regex, null, null, null, null, config);
        Caller caller = CallerFactory.fromToken(token);
        return search.run(caller, () -> {
            JobLogs.Job job = jobLogs.require(caller, id);
            Scope scope = jobLogs.scope(job, lq.user(), lq.system(), lq.pod(), lq.container());
            LineMatcher matcher = LineMatcher.of(lq.q(), lq.ignoreCase(), lq.regex(), config.query().maxRegexLength(),
                    config.query().searchDeadline().toMillis());
            Counter counter = new Counter(queries, search.executor(caller));
            Counter.Count c = JobLogs.retrying(() -> counter.count(scope, lq.from(), lq.to(), matcher));
            return new CountView(c.lines(), c.chunksRead());
        });
    }
}
