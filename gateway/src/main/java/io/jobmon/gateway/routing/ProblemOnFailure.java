package io.jobmon.gateway.routing;

import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.http.HttpFilters;
import io.jobmon.contracts.http.RequestIds;
import io.jobmon.contracts.i18n.I18n;
import io.jobmon.contracts.i18n.Locales;
import io.jobmon.contracts.i18n.Text;
import io.jobmon.contracts.problem.Problem;
import io.jobmon.contracts.http.ProblemMappers;
import java.util.Locale;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClosedException;
import io.vertx.httpproxy.Body;
import io.vertx.httpproxy.ProxyContext;
import io.vertx.httpproxy.ProxyInterceptor;
import io.vertx.httpproxy.ProxyResponse;
import java.util.concurrent.TimeoutException;
import org.jboss.logging.Logger;

/**
 * Turns a downstream that cannot be reached into a problem body the frontend can show: 503 when the service
 * is down (connection refused or not made in time), 504 when it accepted the request but fell silent.
 */
final class ProblemOnFailure implements ProxyInterceptor {

    private static final Logger LOG = Logger.getLogger(ProblemOnFailure.class);
    private final Downstream downstream;

    /** Catalogue key prefix of a downstream's name in a problem: {@code gateway.service.<route name>}. */
    static final String SERVICE = "gateway.service.";

    ProblemOnFailure(Downstream downstream) {
        this.downstream = downstream;
    }

    @Override
    public Future<ProxyResponse> handleProxyRequest(ProxyContext context) {
        return context.sendRequest().recover(failure -> {
            boolean silent = failure instanceof TimeoutException || failure instanceof HttpClosedException
                    || String.valueOf(failure.getMessage()).contains("timeout");
            int status = silent ? 504 : 503;
            Text detail = Text.of(silent ? "gateway.timeout" : "gateway.unavailable",
                    Text.of(SERVICE + downstream.name()));
            LOG.warnf("%s %s -> %d from %s: %s", context.request().getMethod(), context.request().getURI(), status,
                    downstream.name(), failure.toString());
            String path = context.request().proxiedRequest().path();
            I18n i18n = I18n.current();
            Locale locale = i18n.locale(context.request().proxiedRequest().getHeader(I18n.ACCEPT_LANGUAGE));
            Problem problem = Problem.of(status, detail).localize(i18n, locale)
                    .withInstance(path, context.request().headers().get(RequestIds.HEADER));
            ProxyResponse response = context.request().release().response().setStatusCode(status);
            response.headers().set("Content-Type", Problem.MEDIA_TYPE);
            response.headers().set("Content-Language", Locales.tag(locale));
            if (status == 503) {
                response.headers().set("Retry-After", ProblemMappers.RETRY_AFTER_SECONDS);
            }
            response.headers().set(HttpFilters.SERVICE_HEADER, "gateway");
            response.setBody(Body.body(Buffer.buffer(CloudEvents.toJson(problem))));
            return Future.succeededFuture(response);
        });
    }
}
