package io.jobmon.contracts.http;

import io.jobmon.contracts.problem.Problem;
import io.jobmon.contracts.events.CloudEvents;
import io.quarkus.security.AuthenticationException;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.MDC;

/**
 * What every jobmon HTTP server does around each request, REST or not:
 * <ul>
 * <li>accepts or creates {@code X-Request-Id}, puts it in the log MDC and echoes it in the response;</li>
 * <li>names itself in {@code X-Jobmon-Service} so that a response can be traced to the service that made it;</li>
 * <li>answers authentication and authorisation failures with a problem body instead of an empty one.</li>
 * </ul>
 */
@ApplicationScoped
public class HttpFilters {

    public static final String SERVICE_HEADER = "X-Jobmon-Service";

    private final String service;
    private final long maxBodyBytes;

    /**
     * @param maxBodySize {@code jobmon.http.max-body-size}: a request declaring a larger body gets a 413 problem.
     *        Quarkus' own {@code quarkus.http.limits.max-body-size} stays above it as the hard ceiling for
     *        chunked bodies, which it refuses without a body.
     */
    public HttpFilters(@ConfigProperty(name = "quarkus.application.name") String service,
            @ConfigProperty(name = "jobmon.http.max-body-size", defaultValue = "10M") MemorySize maxBodySize) {
        this.service = service;
        this.maxBodyBytes = maxBodySize.asLongValue();
    }

    void registerFilters(@Observes Filters filters) {
        filters.register(this::requestId, 1000);
    }

    void registerFailureHandler(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE).failureHandler(this::securityFailure);
        // Whatever no route serves is a 404 problem, not Vert.x's plain text page.
        router.route().last().handler(rc -> writeProblem(rc,
                Problem.of(404, "Not Found", "no such resource: " + rc.request().path())));
    }

    private void requestId(RoutingContext rc) {
        String id = RequestIds.acceptOrCreate(rc.request().getHeader(RequestIds.HEADER));
        rc.put(RequestIds.MDC_KEY, id);
        MDC.put(RequestIds.MDC_KEY, id);
        rc.request().headers().set(RequestIds.HEADER, id);
        rc.response().putHeader(RequestIds.HEADER, id);
        rc.response().putHeader(SERVICE_HEADER, service);
        if (declaredBodyTooLarge(rc)) {
            writeProblem(rc, Problem.of(413, "Payload Too Large",
                    "the request body is larger than the " + maxBodyBytes + " bytes this service accepts"));
            return;
        }
        if (needsTokenButHasNone(rc)) {
            // The bearer mechanism would answer an empty 401; the API promises a problem body.
            writeProblem(rc, Problem.of(401, "Unauthorized", "a bearer token is required"));
            return;
        }
        rc.next();
    }

    private boolean declaredBodyTooLarge(RoutingContext rc) {
        String length = rc.request().getHeader("Content-Length");
        try {
            return length != null && Long.parseLong(length.trim()) > maxBodyBytes;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static boolean needsTokenButHasNone(RoutingContext rc) {
        if (!rc.request().path().startsWith("/api/") || rc.request().method() == HttpMethod.OPTIONS) {
            return false;
        }
        String auth = rc.request().getHeader("Authorization");
        return auth == null || !auth.regionMatches(true, 0, "Bearer ", 0, 7);
    }

    private void securityFailure(RoutingContext rc) {
        Throwable failure = rc.failure();
        int status = failure instanceof AuthenticationException || failure instanceof UnauthorizedException ? 401
                : failure instanceof ForbiddenException ? 403
                : rc.statusCode() == 401 || rc.statusCode() == 403 ? rc.statusCode() : -1;
        if (failure instanceof io.quarkus.oidc.OIDCException && !rc.response().headWritten()) {
            writeProblem(rc, Problem.of(503, "Service Unavailable", "the identity provider cannot be reached"));
            return;
        }
        if (status < 0 || rc.response().headWritten()) {
            rc.next();
            return;
        }
        String detail = status == 401 ? "a valid bearer token from the platform's identity provider is required"
                : "the caller may not do this";
        writeProblem(rc, Problem.of(status, status == 401 ? "Unauthorized" : "Forbidden", detail));
    }

    /** Ends the response with a problem body; usable by any Vert.x route of a service. */
    public static void writeProblem(RoutingContext rc, Problem problem) {
        Problem body = problem.withInstance(rc.request().path(), rc.get(RequestIds.MDC_KEY));
        if (body.status() == 401) {
            rc.response().putHeader("WWW-Authenticate", "Bearer");
        }
        rc.response().setStatusCode(body.status()).putHeader("Content-Type", Problem.MEDIA_TYPE)
                .end(CloudEvents.toJson(body));
    }
}
