package io.jobmon.events.query;

import io.jobmon.contracts.api.Page;
import io.jobmon.contracts.access.CallerFactory;
import io.jobmon.contracts.access.Permission;
import io.jobmon.contracts.readmodel.JobGuard;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

/** A job's Kubernetes events, guarded by the access rule through the local job-access read model. */
@Path("/api/v1/jobs/{id}/events")
public class EventResource {

    private final JobGuard guard;
    private final EventQueryRepository events;
    private final JsonWebToken token;

    public EventResource(JobGuard guard, EventQueryRepository events, JsonWebToken token) {
        this.guard = guard;
        this.events = events;
        this.token = token;
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "The job's events in time order, with those of the nodes its pods ran on while they ran there"
            + " (flagged with 'node'; not when one pod is asked for) (404 when the caller may not see the job)")
    public Uni<Page<EventItem>> list(@PathParam("id") String id,
            @Parameter(description = "RFC 3339, inclusive") @QueryParam("from") String from,
            @Parameter(description = "RFC 3339, exclusive") @QueryParam("to") String to,
            @Parameter(description = "Normal or Warning") @QueryParam("type") String type,
            @QueryParam("reason") String reason,
            @Parameter(description = "pod name") @QueryParam("pod") String pod,
            @Parameter(description = "1..500, default 50") @QueryParam("limit") String limit,
            @Parameter(description = "nextCursor of the previous page") @QueryParam("cursor") String cursor) {
        EventFilter filter = EventFilter.of(from, to, type, reason, pod, limit, cursor);
        return guard.require(CallerFactory.fromToken(token), id, Permission.VIEW)
                .chain(access -> events.page(id, filter));
    }
}
