package io.jobmon.logs.query;

import io.jobmon.contracts.access.Caller;
import io.jobmon.contracts.access.CallerFactory;
import io.jobmon.contracts.i18n.Text;
import io.jobmon.contracts.problem.ApiException;
import io.jobmon.logs.config.LogsConfig;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * A node's system lines, all of them (kubelet, containerd, device plugin, kernel): for admins only. A job's logs show
 * only the lines that are the job's ({@code attribution}); lines naming no pod and no GPU, and other pods' lines, are
 * seen here.
 */
@Path("/api/v1/nodes/{node}/logs")
@Tag(name = "logs")
public class NodeLogResource {

    private final ChunkQueries queries;
    private final SearchPool search;
    private final LogsConfig config;
    private final JsonWebToken token;

    public NodeLogResource(ChunkQueries queries, SearchPool search, LogsConfig config, JsonWebToken token) {
        this.queries = queries;
        this.search = search;
        this.config = config;
        this.token = token;
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Every system line of a node in time order, unfiltered (admins only: 403 for anyone else)")
    @APIResponse(responseCode = "200", description = "a page of the node's system lines, oldest first (tail: the last"
            + " lines)", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = LogPage.class)))
    @APIResponse(responseCode = "403", description = "the caller is not an admin")
    @APIResponse(responseCode = "422", description = "the search did not finish within query.search-deadline")
    public LogPage lines(@PathParam("node") String node,
            @Parameter(description = "system (the default; a node has no user lines)") @QueryParam("type") String type,
            @BeanParam LinesParams params) {
        Caller caller = CallerFactory.fromToken(token);
        if (!caller.isAdmin()) {
            throw ApiException.forbidden(Text.of("logs.node-admins-only", node));
        }
        if (type != null && !type.isBlank() && !type.equals("system")) {
            throw ApiException.invalid("type", "field.one-of", "system");
        }
        LogQuery lq = params.query("system", null, null, config);
        Scope scope = new Scope(null, false, true, null, null, List.of(node), Long.MIN_VALUE, Long.MAX_VALUE);
        // an admin's searches take their turn like anyone's
        return search.run(caller, () -> Pages.read(queries, search.executor(caller), config, scope, lq,
                new LogPage.Retention(config.retention().days(), null)));
    }
}
