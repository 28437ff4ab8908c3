package io.jobmon.metrics.query;

import io.jobmon.contracts.access.CallerFactory;
import io.jobmon.contracts.access.Permission;
import io.jobmon.contracts.readmodel.JobGuard;
import io.jobmon.metrics.jobs.JobInfo;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.util.List;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** A job's GPU and node charts, guarded by the job's VIEW permission (404 otherwise). */
@Path("/api/v1/jobs/{id}/metrics")
@Tag(name = "metrics")
@Produces(MediaType.APPLICATION_JSON)
public class JobMetricsResource {

    static final List<String> DEFAULT_METRICS = List.of("gpu_util", "gpu_mem_used");

    private final JobViews views;
    private final KeptCharts kept;
    private final JsonWebToken token;

    public JobMetricsResource(JobViews views, KeptCharts kept, JsonWebToken token) {
        this.views = views;
        this.kept = kept;
        this.token = token;
    }

    @GET
    @Operation(summary = "The job's metrics as chart series of [time, value], with unit, step and how each series was attributed")
    @APIResponse(responseCode = "200", description = "the chart; its ETag names these bytes",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Chart.Response.class)))
    @APIResponse(responseCode = "304", description = "If-None-Match named the chart's current ETag: unchanged")
    public Uni<Response> metrics(@PathParam("id") String id,
            @Parameter(description = "repeatable, from GET /api/v1/metrics/catalogue; default gpu_util, gpu_mem_used")
            @QueryParam("metric") List<String> metric,
            @Parameter(description = "RFC 3339; default the job's start (the last 3 days while it runs)") @QueryParam("from") String from,
            @Parameter(description = "RFC 3339; default the job's end, or now") @QueryParam("to") String to,
            @Parameter(description = "seconds or 30s/5m/1h; default automatic") @QueryParam("step") String step,
            @Parameter(description = "high (≤1000 points, default), medium (≤300), low (≤100)") @QueryParam("resolution") String resolution,
            @Parameter(description = "job (default), pod, node, gpu, container (pod and container of a container metric)") @QueryParam("groupBy") String groupBy,
            @Parameter(description = "avg (default), max, min, sum") @QueryParam("aggregation") String aggregation,
            @Parameter(description = "the ETag of a chart shown before: 304 while it is still the answer")
            @HeaderParam("If-None-Match") String ifNoneMatch) {
        ChartParams params = ChartParams.parse(metric, from, to, step, resolution, groupBy, aggregation, DEFAULT_METRICS,
                GroupBy.JOB);
        // at most one round trip before the samples (none while this replica's copy is current); nothing read leaves
        // unless the access check passed
        return views.get(id, params).chain(view -> {
            JobGuard.check(CallerFactory.fromToken(token), id, view.access(), Permission.VIEW);
            // only now, the access checked: a kept answer (ADR 0056), or a new one
            return kept.answer(id, view, view.info().orElseGet(() -> unknownJob(id)), params, Instant.now());
        }).map(a -> KeptCharts.matches(ifNoneMatch, a.etag())
                ? Response.notModified(a.etag()).build()
                : Response.ok(a.body(), MediaType.APPLICATION_JSON_TYPE).tag(a.etag()).build());
    }

    /** A job the access model knows but whose facts have not arrived: no placements, so no series. */
    static JobInfo unknownJob(String id) {
        return new JobInfo(id, null, null, null, null, null, null, null, 0, null, List.of(), List.of(), null, null, null);
    }
}
