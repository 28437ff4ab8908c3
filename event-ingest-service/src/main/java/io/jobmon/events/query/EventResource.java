package io.jobmon.events.query;

import io.jobmon.contracts.access.CallerFactory;
import io.jobmon.contracts.access.Permission;
import io.jobmon.contracts.api.Page;
import io.jobmon.contracts.i18n.I18n;
import io.jobmon.contracts.i18n.Texts;
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
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** A job's Kubernetes events, guarded by the access rule through the local job-access read model. */
@Path("/api/v1/jobs/{id}/events")
@Tag(name = "events")
public class EventResource {

    private final JobGuard guard;
    private final EventQueryRepository events;
    private final JsonWebToken token;
    private final I18n i18n;

    public EventResource(JobGuard guard, EventQueryRepository events, JsonWebToken token, I18n i18n) {
        this.guard = guard;
        this.events = events;
        this.token = token;
        this.i18n = i18n;
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "The job's events (事件) in time order, each reason with its code and an explanation in the "
            + "reader's language, with those of the nodes its pods ran on while they ran there (flagged with 'node'; not "
            + "when one pod is asked for); 404 when the caller may not see the job")
    public Uni<Page<EventItem>> list(@PathParam("id") String id,
            @Parameter(description = "RFC 3339, inclusive") @QueryParam("from") String from,
            @Parameter(description = "RFC 3339, exclusive") @QueryParam("to") String to,
            @Parameter(description = "Normal or Warning", schema = @Schema(enumeration = {"Normal", "Warning"}))
            @QueryParam("type") String type,
            @Parameter(description = "Kubernetes' reason, e.g. FailedScheduling") @QueryParam("reason") String reason,
            @Parameter(description = "pod name") @QueryParam("pod") String pod,
            @Parameter(description = "1..500, default 50", schema = @Schema(type = SchemaType.INTEGER,
                    minimum = "1", maximum = "500", defaultValue = "50")) @QueryParam("limit") String limit,
            @Parameter(description = "nextCursor of the previous page") @QueryParam("cursor") String cursor) {
        EventFilter filter = EventFilter.of(from, to, type, reason, pod, limit, cursor);
        Texts t = i18n.forRequest();
        return guard.require(CallerFactory.fromToken(token), id, Permission.VIEW)
                .chain(access -> events.page(id, filter))
                .map(page -> new Page<>(page.items().stream().map(e -> e.explained(t)).toList(), page.nextCursor()));
    }
}
