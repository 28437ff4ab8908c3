package io.jobmon.diagnosis.rest;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jobmon.contracts.http.HttpFilters;
import io.jobmon.contracts.i18n.I18n;
import io.jobmon.contracts.i18n.Text;
import io.jobmon.contracts.problem.ApiException;
import io.jobmon.contracts.problem.Problem;
import io.jobmon.diagnosis.analysis.AnalysisAdmission;
import io.jobmon.diagnosis.analysis.AnalysisRunner;
import io.jobmon.diagnosis.engine.EngineJson;
import io.jobmon.diagnosis.config.DiagnosisConfig;
import io.jobmon.diagnosis.engine.BundleValidationException;
import io.jobmon.diagnosis.engine.Diagnosis;
import io.quarkus.vertx.http.runtime.RouteConstants;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;

/**
 * {@code POST /api/v1/diagnoses/analyze}: an evidence bundle in, a diagnosis out (documented in
 * {@code META-INF/openapi.yaml}). Any authenticated user may call it: it reads nothing but what they send.
 *
 * <p>A Vert.x route rather than a REST resource so that the bundle limit holds for every body, chunked ones
 * included: the body handler stops reading at the limit and the answer is a 413 problem (a REST resource's body
 * is read by Quarkus REST, which answers an empty 413). Before the body is read, the request is admitted by the heap
 * its analysis will need ({@link AnalysisAdmission}); one that does not fit gets a 503 problem with
 * {@code Retry-After} at once. Parsing and analysis run on the {@link AnalysisRunner} pool, never on the event loop,
 * and are bounded in time.
 */
@ApplicationScoped
public class AnalyzeRoute {

    private static final Logger LOG = Logger.getLogger(AnalyzeRoute.class);

    private static final String RESERVATION = "jobmon.analyze.reservation";
    private static final String STARTED = "jobmon.analyze.started";

    private final AnalysisRunner runner;
    private final AnalysisAdmission admission;
    private final ObjectMapper json;
    private final long maxBytes;
    private final String retryAfter;
    private final I18n i18n;

    public AnalyzeRoute(AnalysisRunner runner, AnalysisAdmission admission, ObjectMapper json, DiagnosisConfig config,
            I18n i18n) {
        this.runner = runner;
        this.admission = admission;
        this.json = json;
        this.maxBytes = config.analyze().maxBundleSize().asLongValue();
        this.retryAfter = String.valueOf(Math.max(1, config.analyze().retryAfter().toSeconds()));
        this.i18n = i18n;
    }

    static final String ANALYZE = "/api/v1/diagnoses/analyze";

    void register(@Observes Router router) {
        // After the security filters (authentication, the /api permission), before Quarkus REST.
        // admission before the body handler (Vert.x wants a body handler first on its route: two routes in order)
        router.post(ANALYZE).order(RouteConstants.ROUTE_ORDER_BEFORE_DEFAULT).handler(this::admit);
        router.post(ANALYZE).order(RouteConstants.ROUTE_ORDER_BEFORE_DEFAULT + 1)
                .handler(BodyHandler.create(false).setBodyLimit(maxBytes).setHandleFileUploads(false))
                .handler(this::analyze);
    }

    /** Reserves the heap the analysis will need, or answers 503 with Retry-After without reading the body. */
    private void admit(RoutingContext rc) {
        long declared = declaredLength(rc);
        if (declared > maxBytes) {
            rc.next(); // the body limit answers 413
            return;
        }
        var reservation = admission.tryReserve(declared);
        if (reservation.isEmpty()) {
            // the body is not read: the connection closes after the answer
            rc.response().putHeader("Retry-After", retryAfter).putHeader("Connection", "close");
            HttpFilters.writeProblem(rc, Problem.of(503, Text.of("analyze.busy", retryAfter)));
            return;
        }
        rc.put(RESERVATION, reservation.get());
        // a request that never reaches the analysis (body refused, client gone) gives its share back at its end
        rc.addEndHandler(x -> {
            if (rc.get(STARTED) == null) {
                reservation.get().release();
            }
        });
        rc.next();
    }

    private static long declaredLength(RoutingContext rc) {
        String length = rc.request().getHeader("Content-Length");
        try {
            return length == null ? -1 : Long.parseLong(length.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private void analyze(RoutingContext rc) {
        String type = rc.request().getHeader("Content-Type");
        if (type != null && !type.toLowerCase().contains("json")) {
            HttpFilters.writeProblem(rc, Problem.of(415, Text.of("analyze.media-type")));
            return;
        }
        byte[] body = rc.body() == null || rc.body().buffer() == null ? new byte[0] : rc.body().buffer().getBytes();
        AnalysisAdmission.Reservation reservation = rc.get(RESERVATION);
        rc.put(STARTED, Boolean.TRUE);
        runner.analyze(body, i18n.locale(rc.request().getHeader(I18n.ACCEPT_LANGUAGE)))
                .onTermination().invoke(() -> {
                    if (reservation != null) {
                        reservation.release();
                    }
                })
                .subscribe().with(
                        diagnosis -> write(rc, diagnosis),
                        failure -> HttpFilters.writeProblem(rc, problem(failure, rc)));
    }

    private void write(RoutingContext rc, Diagnosis diagnosis) {
        try {
            rc.response().setStatusCode(200).putHeader("Content-Type", "application/json")
                    .end(json.writeValueAsString(diagnosis));
        } catch (JsonProcessingException e) {
            HttpFilters.writeProblem(rc, problem(e, rc));
        }
    }

    private static Problem problem(Throwable failure, RoutingContext rc) {
        if (failure instanceof BundleValidationException e) {
            return ApiException.invalid(e.field(), e.code(), e.args()).toProblem();
        }
        if (failure instanceof EngineJson.MalformedJson e) {
            JsonLocation at = e.getCause() instanceof JsonProcessingException p ? p.getLocation() : null;
            return (at == null ? ApiException.invalid("$", "json.malformed")
                    : ApiException.invalid("$", "json.malformed-at", at.getLineNr(), at.getColumnNr())).toProblem();
        }
        if (failure instanceof ApiException e) {
            return e.toProblem();
        }
        LOG.errorf(failure, "analysis failed on %s", rc.request().path());
        return Problem.of(500, Text.of("problem.internal"));
    }
}
