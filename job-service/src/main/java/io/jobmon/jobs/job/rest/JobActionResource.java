package io.jobmon.jobs.job.rest;

import io.jobmon.contracts.i18n.I18n;
import io.jobmon.contracts.i18n.Text;
import io.jobmon.contracts.i18n.Texts;
import io.jobmon.contracts.problem.ApiException;
import io.jobmon.jobs.job.model.JobSpec;
import io.jobmon.jobs.job.rest.dto.JobDetail;
import io.jobmon.jobs.job.rest.dto.Requests;
import io.jobmon.jobs.job.service.ActionService;
import io.jobmon.jobs.job.service.QueryService;
import io.jobmon.jobs.job.service.SubmitService;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Submitting and acting on jobs: submit, stop, resubmit, clone, delete, batch delete. */
@Path("/api/v1/jobs")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "jobs")
public class JobActionResource {

    static final int MAX_BATCH = 500;

    private final SubmitService submits;
    private final ActionService actions;
    private final QueryService queries;
    private final CurrentCaller caller;
    private final I18n i18n;
    private final JobMapper mapper;

    public JobActionResource(SubmitService submits, ActionService actions, QueryService queries, CurrentCaller caller,
            I18n i18n, JobMapper mapper) {
        this.mapper = mapper;
        this.submits = submits;
        this.actions = actions;
        this.queries = queries;
        this.caller = caller;
        this.i18n = i18n;
    }

    /** 201 + the job; with an {@code Idempotency-Key} seen before, 201 + the job that key made. */
    @POST
    @Operation(summary = "Submit a job; a retried submission with the same Idempotency-Key gets the job the first made")
    @APIResponse(responseCode = "201", description = "the job (Idempotent-Replayed: true when an earlier submission "
            + "with this key made it)", headers = {@Header(name = "Location", description = "/api/v1/jobs/{id}",
                    schema = @Schema(type = SchemaType.STRING)),
                    @Header(name = "Idempotent-Replayed", schema = @Schema(type = SchemaType.STRING))},
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = JobDetail.class)))
    @APIResponse(responseCode = "422", description = "the Idempotency-Key was used with another spec")
    public Uni<Response> submit(@RequestBody(required = true) JobSpec spec,
            @Parameter(description = "1-128 visible ASCII characters; a retry with the same key is answered with the "
                    + "same job") @HeaderParam("Idempotency-Key") String key) {
        return submits.submit(caller.get(), spec, key).chain(c -> created(c.job(), c.warnings(), c.replayed()));
    }

    @POST
    @Path("/{id}/stop")
    @Consumes(MediaType.WILDCARD)
    @Operation(summary = "Stop the job (owner or admin): a waiting job is STOPPED at once, a running one STOPPING")
    @APIResponse(responseCode = "200", description = "the job as stopped",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = JobDetail.class)))
    @APIResponse(responseCode = "409", description = "the job already ended")
    public Uni<JobDetail> stop(@PathParam("id") String id) {
        Texts t = i18n.forRequest();
        return actions.stop(caller.get(), id).chain(job -> queries.detailOf(job, List.of())
                .map(d -> mapper.detail(d, t)));
    }

    /** 201 + the new job, linked to the old one (same chain). */
    @POST
    @Path("/{id}/resubmit")
    @Operation(summary = "Resubmit a job that ended (or is ABNORMAL): NORMAL with its spec, DEBUG with a debug command; "
            + "the new job joins its chain")
    @APIResponse(responseCode = "201", description = "the new job", headers = @Header(name = "Location",
            description = "/api/v1/jobs/{newId}", schema = @Schema(type = SchemaType.STRING)),
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = JobDetail.class)))
    @APIResponse(responseCode = "409", description = "the job has not ended")
    public Uni<Response> resubmit(@PathParam("id") String id, Requests.Resubmit body) {
        ActionService.Mode mode = body == null || body.mode() == null ? ActionService.Mode.NORMAL : body.mode();
        return actions.resubmit(caller.get(), id, mode, body == null ? null : body.debugCommand())
                .chain(job -> created(job, List.of(), false));
    }

    /** 201 + the new job; {@code warnings} lists volumes dropped because the caller may not mount them. */
    @POST
    @Path("/{id}/clone")
    @Operation(summary = "Clone a job the caller may see into a new job of theirs, with spec overrides (may be empty)")
    @APIResponse(responseCode = "201", description = "the new job; warnings name volumes dropped because the caller "
            + "may not mount them", headers = @Header(name = "Location", description = "/api/v1/jobs/{newId}",
                    schema = @Schema(type = SchemaType.STRING)),
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = JobDetail.class)))
    public Uni<Response> cloneJob(@PathParam("id") String id, @RequestBody(description = "fields of the job spec to "
            + "change; none is required (an empty object clones as it is)", content = @Content(
                    mediaType = MediaType.APPLICATION_JSON, schema = @Schema(type = SchemaType.OBJECT,
                            description = "any fields of JobSpec"))) JobSpec overrides) {
        return submits.cloneJob(caller.get(), id, overrides).chain(c -> created(c.job(), c.warnings(), false));
    }

    /** 204; 409 unless the job is in a final state. */
    @DELETE
    @Path("/{id}")
    @Consumes(MediaType.WILDCARD)
    @Operation(summary = "Delete a job in a final state (SUCCEEDED, FAILED, STOPPED), with its timeline and pods")
    @APIResponse(responseCode = "204", description = "deleted")
    @APIResponse(responseCode = "409", description = "the job is not in a final state")
    public Uni<Response> delete(@PathParam("id") String id) {
        return actions.delete(caller.get(), id).map(x -> Response.noContent().build());
    }

    /** 200 + a result per id (204, 403, 404 or 409 each). */
    @POST
    @Path("/batch-delete")
    @Operation(summary = "Delete up to 500 jobs, each on its own: a result per id (204, 403, 404 or 409)")
    @APIResponse(responseCode = "200", description = "a result per id", content = @Content(
            mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Requests.BatchDeleteResult.class)))
    public Uni<Requests.BatchDeleteResult> batchDelete(@RequestBody(required = true) Requests.BatchDelete body) {
        if (body == null || body.ids() == null || body.ids().isEmpty()) {
            throw ApiException.invalid("ids", "action.ids-required");
        }
        if (body.ids().size() > MAX_BATCH || body.ids().stream().anyMatch(i -> i == null || i.length() > 40)) {
            throw ApiException.invalid("ids", "action.ids-max", MAX_BATCH);
        }
        Texts t = i18n.forRequest();
        return actions.batchDelete(caller.get(), body.ids().stream().distinct().toList())
                .map(results -> new Requests.BatchDeleteResult(results.stream().map(r -> new Requests.DeleteResult(
                        r.id(), r.status(), t.text(r.detail()))).toList()));
    }

    private Uni<Response> created(io.jobmon.jobs.job.model.JobRecord job, List<Text> warnings, boolean replayed) {
        Texts t = i18n.forRequest();
        return queries.detailOf(job, warnings).map(d -> mapper.detail(d, t)).map(view -> {
            // A relative reference (RFC 9110): the service's own host is not the one clients reach through the gateway.
            Response.ResponseBuilder r = Response.status(Response.Status.CREATED)
                    .header(HttpHeaders.LOCATION, "/api/v1/jobs/" + job.id()).entity(view);
            if (replayed) {
                r.header("Idempotent-Replayed", "true");
            }
            return r.build();
        });
    }
}
