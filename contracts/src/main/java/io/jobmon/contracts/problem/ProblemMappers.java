package io.jobmon.contracts.problem;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import io.jobmon.contracts.http.RequestIds;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.util.List;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * The exception → status table of every service: each exception becomes an RFC 9457 body, never a stack trace.
 *
 * <table>
 * <tr><td>{@link ApiException}</td><td>its own status (400, 403, 404, 409, 410, 413, 503)</td></tr>
 * <tr><td>malformed JSON, wrong type, unknown field</td><td>400 naming the field</td></tr>
 * <tr><td>{@link WebApplicationException} (unknown path, wrong method, media type...)</td><td>its status</td></tr>
 * <tr><td>{@link IllegalArgumentException} (bad enum value, bad number in a query parameter)</td><td>400</td></tr>
 * <tr><td>anything else</td><td>500 with a generic detail; the cause is logged with the request id</td></tr>
 * </table>
 */
public class ProblemMappers {

    private static final Logger LOG = Logger.getLogger(ProblemMappers.class);

    @ServerExceptionMapper
    public Response api(ApiException e, UriInfo uri) {
        return respond(e.toProblem(), uri);
    }

    @ServerExceptionMapper
    public Response json(JsonProcessingException e, UriInfo uri) {
        String field = e instanceof JsonMappingException jme ? path(jme) : null;
        String what = e instanceof UnrecognizedPropertyException ? "unknown field" : "invalid value";
        if (field == null || field.isEmpty()) {
            return respond(Problem.of(400, "Bad Request", "malformed JSON body: " + e.getOriginalMessage()), uri);
        }
        return respond(ApiException.badRequest(field, what).toProblem(), uri);
    }

    /**
     * quarkus-rest-jackson has its own mapper for exactly {@link MismatchedInputException} (unknown field, unknown
     * enum value, wrong type) answering plain JSON; it would win over {@link #json} of the supertype, so this one,
     * ahead of it, hands it back to the table: a problem body naming the field.
     */
    @ServerExceptionMapper(priority = 1)
    public Response mismatchedInput(MismatchedInputException e, UriInfo uri) {
        return json(e, uri);
    }

    @ServerExceptionMapper
    public Response web(WebApplicationException e, UriInfo uri) {
        Response.StatusType status = e.getResponse().getStatusInfo();
        if (e.getCause() instanceof JsonProcessingException jpe) {
            return json(jpe, uri);
        }
        String detail = status.getStatusCode() == 404 ? "no such resource: " + uri.getPath() : e.getMessage();
        return respond(Problem.of(status.getStatusCode(), status.getReasonPhrase(), detail), uri);
    }

    @ServerExceptionMapper
    public Response illegalArgument(IllegalArgumentException e, UriInfo uri) {
        return respond(Problem.of(400, "Bad Request", e.getMessage()), uri);
    }

    @ServerExceptionMapper
    public Response unexpected(RuntimeException e, UriInfo uri) {
        LOG.errorf(e, "unexpected error on %s", uri.getPath());
        return respond(Problem.of(500, "Internal Server Error",
                "the request failed; quote the request id to the platform team"), uri);
    }

    static String path(JsonMappingException e) {
        List<JsonMappingException.Reference> refs = e.getPath();
        return refs.stream()
                .map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
                .collect(Collectors.joining(".")).replace(".[", "[");
    }

    private static Response respond(Problem problem, UriInfo uri) {
        Problem body = problem.withInstance(uri == null ? null : uri.getPath(), RequestIds.current());
        return Response.status(body.status()).type(Problem.MEDIA_TYPE).entity(body).build();
    }
}
