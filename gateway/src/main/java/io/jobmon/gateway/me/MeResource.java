package io.jobmon.gateway.me;

import io.jobmon.contracts.access.Caller;
import io.jobmon.contracts.access.CallerFactory;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.eclipse.microprofile.jwt.JsonWebToken;

/** Who the platform thinks the caller is: what the frontend shows in its header and uses to pick tabs. */
@Path("/api/v1/me")
public class MeResource {

    /** The caller as every service reads the token. */
    public record Me(String user, String tenant, List<String> groups, List<String> roles, boolean admin) {
    }

    private final JsonWebToken token;

    public MeResource(JsonWebToken token) {
        this.token = token;
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Me me() {
        Caller c = CallerFactory.fromToken(token);
        return new Me(c.user(), c.tenant(), c.groups().stream().sorted().toList(),
                c.roles().stream().sorted().toList(), c.isAdmin());
    }
}
