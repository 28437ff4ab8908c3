package io.jobmon.diagnosis.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jobmon.contracts.http.HttpFilters;
import io.jobmon.contracts.i18n.I18n;
import io.jobmon.contracts.i18n.Text;
import io.jobmon.contracts.problem.ApiException;
import io.jobmon.contracts.problem.Problem;
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
 * is read by Quarkus REST, which answers an empty 413). Parsing and analysis run on the {@link AnalysisRunner}
 * pool, never on the event loop, and are bounded in time.
 */
@ApplicationScoped
public class AnalyzeRoute {

    private static final Logger LOG = Logger.getLogger(AnalyzeRoute.class);

    private final AnalysisRunner runner;
    private final ObjectMapper json;
    private final long maxBytes;
    private final I18n i18n;

    public AnalyzeRoute(AnalysisRunner runner, ObjectMapper json, DiagnosisConfig config, I18n i18n) {
        this.runner = runner;
        this.json = json;
        this.maxBytes = config.analyze().maxBundleSize().asLongValue();
        this.i18n = i18n;
    }

    static final String ANALYZE = "/api/v1/diagnoses/analyze";

    void register(@Observes Router router) {
        // After the security filters (authentication, the /api permission), before Quarkus REST.
        router.post(ANALYZE).order(RouteConstants.ROUTE_ORDER_BEFORE_DEFAULT)
                .handler(BodyHandler.create(false).setBodyLimit(maxBytes).setHandleFileUploads(false))
                .handler(this::analyze);
    }

    private void analyze(RoutingContext rc) {
        String type = rc.request().getHeader("Content-Type");
        if (type != null && !type.toLowerCase().contains("json")) {
            HttpFilters.writeProblem(rc, Problem.of(415, Text.of("analyze.media-type")));
            return;
        }
        byte[] body = rc.body() == null || rc.body().buffer() == null ? new byte[0] : rc.body().buffer().getBytes();
        runner.analyze(body, i18n.locale(rc.request().getHeader(I18n.ACCEPT_LANGUAGE))).subscribe().with(
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
            String message = e.getMessage().startsWith(e.field() + ": ")
                    ? e.getMessage().substring(e.field().length() + 2) : e.getMessage();
            return ApiException.badRequest(e.field(), message).toProblem();
        }
        if (failure instanceof EngineJson.MalformedJson e) {
            return ApiException.invalid("$", "analyze.malformed", e.getMessage()).toProblem();
        }
        if (failure instanceof ApiException e) {
            return e.toProblem();
        }
        LOG.errorf(failure, "analysis failed on %s", rc.request().path());
        return Problem.of(500, Text.of("problem.internal"));
    }
}
