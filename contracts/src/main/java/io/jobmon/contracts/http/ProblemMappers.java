package io.jobmon.contracts.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import io.jobmon.contracts.i18n.I18n;
import io.jobmon.contracts.i18n.Locales;
import io.jobmon.contracts.i18n.Text;
import io.jobmon.contracts.problem.ApiException;
import io.jobmon.contracts.problem.DependencyFailures;
import io.jobmon.contracts.problem.JsonErrors;
import io.jobmon.contracts.problem.Problem;
import jakarta.inject.Inject;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.util.Locale;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * The exception → status table of every service: each failure becomes an RFC 9457 body in the reader's language
 * ({@code Accept-Language}), never a stack trace.
 *
 * <table>
 * <tr><td>{@link ApiException}</td><td>its own status (400, 403, 404, 409, 410, 413, 422, 429, 503)</td></tr>
 * <tr><td>malformed JSON, wrong type, unknown field, a NUL character</td><td>400 naming the field and what was
 * expected</td></tr>
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
    /** The catalogue key of the one text of a path nothing serves. */
    public static final String NOT_FOUND = "problem.not-found.path";

    private final I18n i18n;

    @Inject
    public ProblemMappers(I18n i18n) {
        this.i18n = i18n;
    }

    @ServerExceptionMapper
    public Response api(ApiException e, UriInfo uri, HttpHeaders headers) {
        return respond(e.toProblem(), uri, headers);
    }

    @ServerExceptionMapper
    public Response json(JsonProcessingException e, UriInfo uri, HttpHeaders headers) {
        return respond(JsonErrors.badRequest(e).toProblem(), uri, headers);
    }

    /**
     * quarkus-rest-jackson has its own mapper for exactly {@link MismatchedInputException} (unknown field, unknown
     * enum value, wrong type) answering plain JSON; it would win over {@link #json} of the supertype, so this one,
     * ahead of it, hands it back to the table.
     */
    @ServerExceptionMapper(priority = 1)
    public Response mismatchedInput(MismatchedInputException e, UriInfo uri, HttpHeaders headers) {
        return json(e, uri, headers);
    }

    @ServerExceptionMapper
    public Response web(WebApplicationException e, UriInfo uri, HttpHeaders headers) {
        if (e.getCause() instanceof JsonProcessingException jpe) {
            return json(jpe, uri, headers);
        }
        int code = e.getResponse().getStatus();
        if (code >= 500) {
            return unexpected(e, uri, headers);
        }
        Text detail = switch (code) {
            case 404 -> Text.of(NOT_FOUND);
            case 405 -> Text.of("problem.method-not-allowed", uri == null ? "" : uri.getPath());
            case 406 -> Text.of("problem.not-acceptable");
            case 415 -> Text.of("problem.unsupported-media-type");
            default -> Text.of("problem.status", code);
        };
        return respond(Problem.of(code, detail), uri, headers);
    }

    @ServerExceptionMapper
    public Response unexpected(Throwable e, UriInfo uri, HttpHeaders headers) {
        String path = uri == null ? null : uri.getPath();
        if (DependencyFailures.isUnavailable(e)) {
            LOG.warnf("dependency unavailable on %s: %s", path, e.getMessage());
            return Response.fromResponse(respond(Problem.of(503, Text.of("problem.unavailable")), uri, headers))
                    .header("Retry-After", RETRY_AFTER_SECONDS).build();
        }
        LOG.errorf(e, "unexpected error on %s", path);
        return respond(Problem.of(500, Text.of("problem.internal")), uri, headers);
    }

    private Response respond(Problem problem, UriInfo uri, HttpHeaders headers) {
        String language = headers == null ? null : headers.getHeaderString(I18n.ACCEPT_LANGUAGE);
        Locale locale = i18n.locale(language);
        Problem body = problem.localize(i18n, locale).withInstance(uri == null ? null : uri.getPath(),
                RequestIds.current());
        return Response.status(body.status()).type(Problem.MEDIA_TYPE).header("Content-Language", Locales.tag(locale))
                .entity(body).build();
    }
}
