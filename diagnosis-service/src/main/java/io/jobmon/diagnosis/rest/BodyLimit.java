package io.jobmon.diagnosis.rest;

import io.jobmon.contracts.http.HttpFilters;
import io.jobmon.contracts.problem.Problem;
import io.jobmon.diagnosis.config.DiagnosisConfig;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Too-large bodies answer a 413 problem, never an empty one. The shared filter ({@code jobmon.http.max-body-size})
 * lets evidence bundles through; here a declared {@code Content-Length} above the limit of its path is refused
 * before the body is read: the bundle limit for {@code /api/v1/diagnoses/analyze}, the small request limit
 * elsewhere. Quarkus' own ceiling ({@code quarkus.http.limits.max-body-size}, which also catches chunked bodies)
 * is turned into the same problem.
 */
@ApplicationScoped
public class BodyLimit {

    static final String ANALYZE = "/api/v1/diagnoses/analyze";

    private final long maxBundle;
    private final long maxRequest;

    public BodyLimit(DiagnosisConfig config) {
        this.maxBundle = config.analyze().maxBundleSize().asLongValue();
        this.maxRequest = config.maxRequestSize().asLongValue();
    }

    void register(@Observes Filters filters) {
        // After HttpFilters' request id (priority 1000), so the problem carries it.
        filters.register(this::checkDeclaredLength, 900);
    }

    void registerFailureHandler(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE + 1).failureHandler(this::quarkusLimit);
    }

    private void checkDeclaredLength(RoutingContext rc) {
        String length = rc.request().getHeader("Content-Length");
        if (length != null && rc.request().path().startsWith("/api/")) {
            long limit = ANALYZE.equals(rc.request().path()) ? maxBundle : maxRequest;
            try {
                if (Long.parseLong(length.trim()) > limit) {
                    rc.response().putHeader("Connection", "close");
                    HttpFilters.writeProblem(rc, problem(limit));
                    return;
                }
            } catch (NumberFormatException e) {
                // not ours to judge: the HTTP layer answers a bad Content-Length
            }
        }
        rc.next();
    }

    private void quarkusLimit(RoutingContext rc) {
        if (rc.statusCode() == 413 && !rc.response().headWritten()) {
            rc.response().putHeader("Connection", "close");
            HttpFilters.writeProblem(rc, problem(ANALYZE.equals(rc.request().path()) ? maxBundle : maxRequest));
            return;
        }
        rc.next();
    }

    static Problem problem(long limit) {
        return new Problem(Problem.TYPE_BASE + "payload-too-large", "Payload Too Large", 413,
                "the request body is larger than the " + limit + " bytes this endpoint accepts", null, null, null);
    }
}
