package io.jobmon.gateway.me;

import io.jobmon.contracts.access.Caller;
import io.jobmon.contracts.access.CallerFactory;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Who the platform thinks the caller is: what the frontend shows in its header and uses to pick tabs. */
@Path("/api/v1/me")
@Tag(name = "me")
public class MeResource {

    /**
     * The caller as every service reads the token.
     *
     * @param groups project groups; @param admin whether the caller holds the role admin (scope=all)
     */
    @Schema(requiredProperties = {"user", "tenant", "groups", "roles", "admin"})
    public record Me(String user, String tenant, List<String> groups, List<String> roles, boolean admin) {
    }

    private final JsonWebToken token;

    public MeResource(JsonWebToken token) {
        this.token = token;
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "The caller as the platform reads the token: user, tenant, project groups, roles")
    public Me me() {
        Caller c = CallerFactory.fromToken(token);
        return new Me(c.user(), c.tenant(), c.groups().stream().sorted().toList(),
                c.roles().stream().sorted().toList(), c.isAdmin());
    }
}
