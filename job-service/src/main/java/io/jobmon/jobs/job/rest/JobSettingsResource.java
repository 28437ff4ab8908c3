package io.jobmon.jobs.job.rest;

import io.jobmon.contracts.problem.ApiException;
import io.jobmon.jobs.job.rest.dto.JobDetail;
import io.jobmon.jobs.job.rest.dto.Requests;
import io.jobmon.jobs.job.service.QueryService;
import io.jobmon.jobs.job.service.SettingsService;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/** The owner's settings of a job: tags, shares, visibility (each replaces the previous value). */
@Path("/api/v1/jobs/{id}")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class JobSettingsResource {

    private final SettingsService settings;
    private final QueryService queries;
    private final CurrentCaller caller;

    public JobSettingsResource(SettingsService settings, QueryService queries, CurrentCaller caller) {
        this.settings = settings;
        this.queries = queries;
        this.caller = caller;
    }

    @PUT
    @Path("/tags")
    public Uni<JobDetail> tags(@PathParam("id") String id, Requests.Tags body) {
        return settings.tags(caller.get(), id, body == null ? null : body.tags())
                .chain(job -> queries.detailOf(job, List.of()));
    }

    @PUT
    @Path("/shares")
    public Uni<JobDetail> shares(@PathParam("id") String id, Requests.Shares body) {
        return settings.shares(caller.get(), id, body == null ? null : body.users())
                .chain(job -> queries.detailOf(job, List.of()));
    }

    @PUT
    @Path("/visibility")
    public Uni<JobDetail> visibility(@PathParam("id") String id, Requests.VisibilityChange body) {
        if (body == null) {
            throw ApiException.badRequest("visibility", "required: PRIVATE or PROJECT");
        }
        return settings.visibility(caller.get(), id, body.visibility())
                .chain(job -> queries.detailOf(job, List.of()));
    }
}
