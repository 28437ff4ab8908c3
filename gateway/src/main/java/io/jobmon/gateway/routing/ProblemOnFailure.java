package io.jobmon.gateway.routing;

import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.http.HttpFilters;
import io.jobmon.contracts.http.RequestIds;
import io.jobmon.contracts.problem.Problem;
import io.netty.handler.codec.http.HttpResponseStatus;
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

    ProblemOnFailure(Downstream downstream) {
        this.downstream = downstream;
    }

    @Override
    public Future<ProxyResponse> handleProxyRequest(ProxyContext context) {
        return context.sendRequest().recover(failure -> {
            boolean silent = failure instanceof TimeoutException || failure instanceof HttpClosedException
                    || String.valueOf(failure.getMessage()).contains("timeout");
            int status = silent ? 504 : 503;
            String detail = silent ? downstream.name() + " did not answer in time"
                    : downstream.name() + " is unavailable";
            LOG.warnf("%s %s -> %s: %s", context.request().getMethod(), context.request().getURI(), detail,
                    failure.toString());
            String path = context.request().proxiedRequest().path();
            Problem problem = Problem.of(status, HttpResponseStatus.valueOf(status).reasonPhrase(), detail)
                    .withInstance(path, context.request().headers().get(RequestIds.HEADER));
            ProxyResponse response = context.request().release().response().setStatusCode(status);
            response.headers().set("Content-Type", Problem.MEDIA_TYPE);
            response.headers().set(HttpFilters.SERVICE_HEADER, "gateway");
            response.setBody(Body.body(Buffer.buffer(CloudEvents.toJson(problem))));
            return Future.succeededFuture(response);
        });
    }
}
