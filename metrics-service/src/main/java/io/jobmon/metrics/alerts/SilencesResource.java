package io.jobmon.metrics.alerts;

import io.jobmon.contracts.access.Caller;
import io.jobmon.contracts.access.CallerFactory;
import io.jobmon.contracts.api.Page;
import io.jobmon.contracts.i18n.Text;
import io.jobmon.contracts.problem.ApiException;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Tenant admins' silences in Alertmanager, each confined to the admin's tenant (ADR 0034). */
@Path("/api/v1/alerts/silences")
@Tag(name = "alerts")
@Produces(MediaType.APPLICATION_JSON)
public class SilencesResource {

    private final SilenceService silences;
    private final JsonWebToken token;

    public SilencesResource(SilenceService silences, JsonWebToken token) {
        this.silences = silences;
        this.token = token;
    }

    @GET
    @Operation(summary = "The tenant's silences, active and pending first (admins): {items}")
    public Uni<Page<AlertSilence>> list() {
        return silences.list(admin()).map(Page::last);
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Silence the tenant's alerts the matchers match (admins); tenant=\"<yours>\" is added")
    @APIResponse(responseCode = "201", description = "the silence as Alertmanager keeps it",
            headers = @Header(name = "Location", description = "/api/v1/alerts/silences/{id}",
                    schema = @Schema(type = SchemaType.STRING)),
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = AlertSilence.class)))
    public Uni<Response> create(SilenceRequest body) {
        Caller caller = admin();
        return silences.create(caller, body, Instant.now())
                // a relative reference (RFC 9110), as job-service's: clients reach the service through the gateway
                .map(s -> Response.status(Response.Status.CREATED)
                        .header(HttpHeaders.LOCATION, "/api/v1/alerts/silences/" + s.id()).entity(s).build());
    }

    @GET
    @Path("{id}")
    @Operation(summary = "One of the tenant's silences (admins); 404 for any other")
    public Uni<AlertSilence> get(@PathParam("id") String id) {
        return silences.get(admin(), id);
    }

    @DELETE
    @Path("{id}")
    @Operation(summary = "Expire one of the tenant's silences (admins); 404 for any other")
    @APIResponse(responseCode = "204", description = "expired")
    public Uni<Response> expire(@PathParam("id") String id) {
        return silences.expire(admin(), id).map(x -> Response.noContent().build());
    }

    private Caller admin() {
        Caller caller = CallerFactory.fromToken(token);
        if (!caller.isAdmin() || caller.tenant() == null) {
            throw ApiException.forbidden(Text.of("alerts.admins-only"));
        }
        return caller;
    }
}
