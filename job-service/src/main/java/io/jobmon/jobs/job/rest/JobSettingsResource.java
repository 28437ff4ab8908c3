package io.jobmon.jobs.job.rest;

import io.jobmon.contracts.problem.ApiException;
import io.jobmon.jobs.job.rest.dto.JobDetail;
import io.jobmon.jobs.job.rest.dto.Requests;
import io.jobmon.contracts.i18n.I18n;
import io.jobmon.contracts.i18n.Texts;
import io.jobmon.jobs.job.model.JobRecord;
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
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The owner's settings of a job: tags, shares, visibility (each replaces the previous value). */
@Path("/api/v1/jobs/{id}")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "jobs")
public class JobSettingsResource {

    private final SettingsService settings;
    private final QueryService queries;
    private final CurrentCaller caller;
    private final JobMapper mapper;
    private final I18n i18n;

    public JobSettingsResource(SettingsService settings, QueryService queries, CurrentCaller caller, JobMapper mapper,
            I18n i18n) {
        this.settings = settings;
        this.queries = queries;
        this.caller = caller;
        this.mapper = mapper;
        this.i18n = i18n;
    }

    private Uni<JobDetail> view(Uni<JobRecord> changed) {
        Texts t = i18n.forRequest();
        return changed.chain(job -> queries.detailOf(job, List.of())).map(d -> mapper.detail(d, t));
    }

    @PUT
    @Path("/tags")
    @Operation(summary = "Replace the job's tags (owner or admin)")
    public Uni<JobDetail> tags(@PathParam("id") String id, @RequestBody(required = true) Requests.Tags body) {
        return view(settings.tags(caller.get(), id, body == null ? null : body.tags()));
    }

    @PUT
    @Path("/shares")
    @Operation(summary = "Replace the users the job is shared with (owner or admin); each must be a user of the "
            + "caller's tenant known to jobmon (GET /api/v1/users)")
    @APIResponse(responseCode = "200", description = "the job",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = JobDetail.class)))
    @APIResponse(responseCode = "422", description = "a user jobmon does not know in the tenant (errors[] names each)")
    public Uni<JobDetail> shares(@PathParam("id") String id, @RequestBody(required = true) Requests.Shares body) {
        return view(settings.shares(caller.get(), id, body == null ? null : body.users()));
    }

    @PUT
    @Path("/visibility")
    @Operation(summary = "PRIVATE or PROJECT (visible to the members of the job's project group)")
    public Uni<JobDetail> visibility(@PathParam("id") String id,
            @RequestBody(required = true) Requests.VisibilityChange body) {
        if (body == null) {
            throw ApiException.invalid("visibility", "field.one-of", "PRIVATE, PROJECT");
        }
        return view(settings.visibility(caller.get(), id, body.visibility()));
    }
}
