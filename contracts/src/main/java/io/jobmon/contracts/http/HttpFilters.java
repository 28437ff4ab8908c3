package io.jobmon.contracts.http;

import io.jobmon.contracts.i18n.I18n;
import io.jobmon.contracts.i18n.Locales;
import io.jobmon.contracts.i18n.Text;
import io.jobmon.contracts.problem.DependencyFailures;
import io.jobmon.contracts.problem.Problem;
import org.jboss.logging.Logger;
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
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * What every jobmon HTTP server does around each request, REST or not:
 * <ul>
 * <li>accepts or creates {@code X-Request-Id}, puts it in the log MDC and echoes it in the response;</li>
 * <li>names itself in {@code X-Jobmon-Service} so that a response can be traced to the service that made it;</li>
 * <li>refuses what no endpoint should see ({@link RequestChecks}: bodies over the limit, dot-segments, control
 * characters, over-long URIs) with a problem body;</li>
 * <li>answers every failure without a response (authentication, authorisation, Vert.x' own refusals) with a
 * problem body instead of an empty one.</li>
 * </ul>
 */
@ApplicationScoped
public class HttpFilters {

    public static final String SERVICE_HEADER = "X-Jobmon-Service";
    private static final Logger LOG = Logger.getLogger(HttpFilters.class);

    private final String service;
    private final long maxBodyBytes;
    private final Set<String> largeBodyPaths;
    private final long largeBodyBytes;
    private final boolean streamTickets;

    /**
     * @param maxBodySize {@code jobmon.http.max-body-size}: a request declaring a larger body gets a 413 problem.
     *        Quarkus' own {@code quarkus.http.limits.max-body-size} stays above it as the hard ceiling for
     *        chunked bodies; what it refuses becomes the same problem.
     * @param largeBodyPaths {@code jobmon.http.large-body-paths}: paths that take larger bodies (evidence bundles)
     * @param largeBodySize {@code jobmon.http.large-body-size}: their limit
     * @param streamTickets {@code jobmon.http.stream-ticket.enabled}: the follow's ticket form passes without a token
     *        (gateway, log-service; {@link StreamTickets})
     */
    public HttpFilters(@ConfigProperty(name = "quarkus.application.name") String service,
            @ConfigProperty(name = "jobmon.http.max-body-size", defaultValue = "10M") MemorySize maxBodySize,
            @ConfigProperty(name = "jobmon.http.large-body-paths") Optional<Set<String>> largeBodyPaths,
            @ConfigProperty(name = "jobmon.http.large-body-size", defaultValue = "10M") MemorySize largeBodySize,
            @ConfigProperty(name = StreamTickets.ENABLED, defaultValue = "false") boolean streamTickets) {
        this.streamTickets = streamTickets;
        this.service = service;
        this.maxBodyBytes = maxBodySize.asLongValue();
        this.largeBodyPaths = largeBodyPaths.orElse(Set.of());
        this.largeBodyBytes = largeBodySize.asLongValue();
    }

    /** The body limit of a path. */
    long bodyLimit(String path) {
        return largeBodyPaths.contains(path) ? largeBodyBytes : maxBodyBytes;
    }

    void registerFilters(@Observes Filters filters) {
        filters.register(this::requestId, 1000);
        // After CORS (300), so that a refusal still carries the CORS headers a browser needs to read it; before
        // authentication (200).
        filters.register(this::refuse, 250);
    }

    void registerFailureHandler(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE).failureHandler(this::failure);
        // What Vert.x Web refuses before any route runs (a path that does not decode: %zz) ends as a problem too.
        for (int status : new int[] {400, 404, 405, 413, 414, 431, 500}) {
            router.errorHandler(status, this::failure);
        }
        // Whatever no route serves is a 404 problem, not Vert.x's plain text page.
        router.route().last().handler(rc -> writeProblem(rc, Problem.of(404, Text.of(ProblemMappers.NOT_FOUND))));
    }

    private void requestId(RoutingContext rc) {
        String id = RequestIds.acceptOrCreate(rc.request().getHeader(RequestIds.HEADER));
        rc.put(RequestIds.MDC_KEY, id);
        MDC.put(RequestIds.MDC_KEY, id);
        rc.request().headers().set(RequestIds.HEADER, id);
        rc.response().headers().set(RequestIds.HEADER, id);
        rc.response().headers().set(SERVICE_HEADER, service);
        rc.next();
    }

    private void refuse(RoutingContext rc) {
        Problem refused = RequestChecks.refusal(rc.request(), bodyLimit(rc.request().path()));
        if (refused != null) {
            writeProblem(rc, refused);
            return;
        }
        if (needsTokenButHasNone(rc)) {
            // The bearer mechanism would answer an empty 401; the API promises a problem body.
            writeProblem(rc, Problem.of(401, Text.of("problem.token-required")));
            return;
        }
        rc.next();
    }

    private boolean needsTokenButHasNone(RoutingContext rc) {
        // The path as the router and the security policy match it (percent-encoded letters decoded: /%61pi is /api).
        String path = rc.normalizedPath();
        if (path == null || !path.startsWith("/api/") || rc.request().method() == HttpMethod.OPTIONS
                || streamTickets && StreamTickets.isTicketFollow(rc)) {
            return false; // a stream ticket stands for the token on exactly one request form (StreamTickets)
        }
        String auth = rc.request().getHeader("Authorization");
        return auth == null || !auth.regionMatches(true, 0, "Bearer ", 0, 7);
    }

    /**
     * Every failure that reaches the router without a response — security (401, 403), Vert.x' own refusals (400
     * for a path that does not decode, 413 over the hard body limit), an error thrown by a plain route — ends
     * with a problem body, never an empty one or a stack trace.
     */
    private void failure(RoutingContext rc) {
        if (rc.response().headWritten()) {
            rc.next();
            return;
        }
        Throwable failure = rc.failure();
        if (failure instanceof io.quarkus.oidc.OIDCException) {
            writeProblem(rc, Problem.of(503, Text.of("problem.idp-unavailable")));
            return;
        }
        int status = failure instanceof AuthenticationException || failure instanceof UnauthorizedException ? 401
                : failure instanceof ForbiddenException ? 403
                : rc.statusCode() >= 400 ? rc.statusCode() : 500;
        switch (status) {
            case 401 -> writeProblem(rc, Problem.of(401, Text.of("problem.unauthorized")));
            case 403 -> writeProblem(rc, Problem.of(403, Text.of("problem.forbidden")));
            case 413 -> {
                rc.response().putHeader("Connection", "close");
                writeProblem(rc, RequestChecks.tooLarge(bodyLimit(rc.request().path())));
            }
            default -> {
                if (status >= 500 && failure != null && DependencyFailures.isUnavailable(failure)) {
                    rc.response().putHeader("Retry-After", ProblemMappers.RETRY_AFTER_SECONDS);
                    writeProblem(rc, Problem.of(503, Text.of("problem.unavailable")));
                } else if (status >= 500) {
                    LOG.errorf(failure, "unexpected error on %s", rc.request().path());
                    writeProblem(rc, Problem.of(500, Text.of("problem.internal")));
                } else {
                    writeProblem(rc, Problem.of(status, status == 400 ? Text.of("problem.malformed")
                            : Text.of("problem.status", status)));
                }
            }
        }
    }

    /**
     * Ends the response with a problem body in the reader's language ({@code Accept-Language}); usable by any
     * Vert.x route of a service.
     */
    public static void writeProblem(RoutingContext rc, Problem problem) {
        RouteTags.unlessRouted(rc);
        I18n i18n = I18n.current();
        Locale locale = i18n.locale(rc.request().getHeader(I18n.ACCEPT_LANGUAGE));
        Problem body = problem.localize(i18n, locale).withInstance(rc.request().path(), rc.get(RequestIds.MDC_KEY));
        if (body.status() == 401) {
            rc.response().putHeader("WWW-Authenticate", "Bearer");
        }
        rc.response().setStatusCode(body.status()).putHeader("Content-Type", Problem.MEDIA_TYPE)
                .putHeader("Content-Language", Locales.tag(locale))
                .end(CloudEvents.toJson(body));
    }
}
