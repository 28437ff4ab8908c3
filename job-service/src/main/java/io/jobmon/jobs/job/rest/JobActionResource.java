package io.jobmon.jobs.job.rest;

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

/** Submitting and acting on jobs: submit, stop, resubmit, clone, delete, batch delete. */
@Path("/api/v1/jobs")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class JobActionResource {

    static final int MAX_BATCH = 500;

    private final SubmitService submits;
    private final ActionService actions;
    private final QueryService queries;
    private final CurrentCaller caller;

    public JobActionResource(SubmitService submits, ActionService actions, QueryService queries, CurrentCaller caller) {
        this.submits = submits;
        this.actions = actions;
        this.queries = queries;
        this.caller = caller;
    }

    /** 201 + the job; with an {@code Idempotency-Key} seen before, 201 + the job that key made. */
    @POST
    public Uni<Response> submit(JobSpec spec, @HeaderParam("Idempotency-Key") String key) {
        return submits.submit(caller.get(), spec, key).chain(c -> created(c.job(), c.warnings(), c.replayed()));
    }

    @POST
    @Path("/{id}/stop")
    @Consumes(MediaType.WILDCARD)
    public Uni<JobDetail> stop(@PathParam("id") String id) {
        return actions.stop(caller.get(), id).chain(job -> queries.detailOf(job, List.of()));
    }

    /** 201 + the new job, linked to the old one (same chain). */
    @POST
    @Path("/{id}/resubmit")
    public Uni<Response> resubmit(@PathParam("id") String id, Requests.Resubmit body) {
        ActionService.Mode mode = body == null || body.mode() == null ? ActionService.Mode.NORMAL : body.mode();
        return actions.resubmit(caller.get(), id, mode, body == null ? null : body.debugCommand())
                .chain(job -> created(job, List.of(), false));
    }

    /** 201 + the new job; {@code warnings} lists volumes dropped because the caller may not mount them. */
    @POST
    @Path("/{id}/clone")
    public Uni<Response> cloneJob(@PathParam("id") String id, JobSpec overrides) {
        return submits.cloneJob(caller.get(), id, overrides).chain(c -> created(c.job(), c.warnings(), false));
    }

    /** 204; 409 unless the job is in a final state. */
    @DELETE
    @Path("/{id}")
    @Consumes(MediaType.WILDCARD)
    public Uni<Response> delete(@PathParam("id") String id) {
        return actions.delete(caller.get(), id).map(x -> Response.noContent().build());
    }

    /** 200 + a result per id (204, 403, 404 or 409 each). */
    @POST
    @Path("/batch-delete")
    public Uni<Requests.BatchDeleteResult> batchDelete(Requests.BatchDelete body) {
        if (body == null || body.ids() == null || body.ids().isEmpty()) {
            throw ApiException.badRequest("ids", "a non-empty list of job ids");
        }
        if (body.ids().size() > MAX_BATCH || body.ids().stream().anyMatch(i -> i == null || i.length() > 40)) {
            throw ApiException.badRequest("ids", "at most " + MAX_BATCH + " job ids");
        }
        return actions.batchDelete(caller.get(), body.ids().stream().distinct().toList())
                .map(Requests.BatchDeleteResult::new);
    }

    private Uni<Response> created(io.jobmon.jobs.job.model.JobRecord job, List<String> warnings, boolean replayed) {
        return queries.detailOf(job, warnings).map(view -> {
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
