package io.jobmon.contracts.problem;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import io.jobmon.contracts.http.RequestIds;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * The exception → status table of every service: each failure becomes an RFC 9457 body, never a stack trace.
 *
 * <table>
 * <tr><td>{@link ApiException}</td><td>its own status (400, 403, 404, 409, 410, 413, 422, 429, 503)</td></tr>
 * <tr><td>malformed JSON, wrong type, unknown field</td><td>400 naming the field and what was expected</td></tr>
 * <tr><td>{@link WebApplicationException} (unknown path, wrong method, media type...)</td><td>its status</td></tr>
 * <tr><td>a dependency that is down ({@link DependencyFailures})</td><td>503 with {@code Retry-After}</td></tr>
 * <tr><td>anything else, {@code IllegalArgumentException} included</td><td>500 with the request id and nothing
 * else; logged once with its stack</td></tr>
 * </table>
 * Only validation ({@link ApiException}, JSON binding) blames the client: an internal failure never becomes a 400.
 */
public class ProblemMappers {

    private static final Logger LOG = Logger.getLogger(ProblemMappers.class);
    /** Seconds a client should wait before trying again after a 503. */
    public static final String RETRY_AFTER_SECONDS = "5";

    @ServerExceptionMapper
    public Response api(ApiException e, UriInfo uri) {
        return respond(e.toProblem(), uri);
    }

    @ServerExceptionMapper
    public Response json(JsonProcessingException e, UriInfo uri) {
        return respond(JsonErrors.badRequest(e).toProblem(), uri);
    }

    /**
     * quarkus-rest-jackson has its own mapper for exactly {@link MismatchedInputException} (unknown field, unknown
     * enum value, wrong type) answering plain JSON; it would win over {@link #json} of the supertype, so this one,
     * ahead of it, hands it back to the table.
     */
    @ServerExceptionMapper(priority = 1)
    public Response mismatchedInput(MismatchedInputException e, UriInfo uri) {
        return json(e, uri);
    }

    @ServerExceptionMapper
    public Response web(WebApplicationException e, UriInfo uri) {
        if (e.getCause() instanceof JsonProcessingException jpe) {
            return json(jpe, uri);
        }
        Response.StatusType status = e.getResponse().getStatusInfo();
        int code = status.getStatusCode();
        if (code >= 500) {
            return unexpected(e, uri);
        }
        String detail = switch (code) {
            case 404 -> NOT_FOUND;
            case 405 -> "this method is not allowed on " + (uri == null ? "this path" : uri.getPath());
            case 406 -> "none of the accepted media types can be produced";
            case 415 -> "this media type is not accepted here; send application/json";
            default -> status.getReasonPhrase();
        };
        return respond(Problem.of(code, status.getReasonPhrase(), detail), uri);
    }

    /** The one text of a path nothing serves (ids of jobs that exist but are not the caller's get ApiException's). */
    public static final String NOT_FOUND = "no such resource";

    @ServerExceptionMapper
    public Response unexpected(Throwable e, UriInfo uri) {
        String path = uri == null ? null : uri.getPath();
        if (DependencyFailures.isUnavailable(e)) {
            LOG.warnf("dependency unavailable on %s: %s", path, e.getMessage());
            return Response.fromResponse(respond(ApiException.unavailable(
                    "a service this request needs is unavailable; try again shortly").toProblem(), uri))
                    .header("Retry-After", RETRY_AFTER_SECONDS).build();
        }
        LOG.errorf(e, "unexpected error on %s", path);
        return respond(Problem.of(500, "Internal Server Error",
                "the request failed; quote the request id to the platform team"), uri);
    }

    private static Response respond(Problem problem, UriInfo uri) {
        Problem body = problem.withInstance(uri == null ? null : uri.getPath(), RequestIds.current());
        return Response.status(body.status()).type(Problem.MEDIA_TYPE).entity(body).build();
    }
}
