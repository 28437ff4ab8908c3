package io.jobmon.gateway.routing;

import io.jobmon.contracts.http.RequestIds;
import io.vertx.core.Future;
import io.vertx.httpproxy.ProxyContext;
import io.vertx.httpproxy.ProxyInterceptor;

/**
 * Every proxied answer carries the request's {@code X-Request-Id} exactly once: the value the gateway forwarded,
 * whether the service echoed it, echoed another, or said nothing.
 */
final class OneRequestId implements ProxyInterceptor {

    @Override
    public Future<Void> handleProxyResponse(ProxyContext context) {
        String id = context.request().headers().get(RequestIds.HEADER);
        if (id != null) {
            context.response().headers().set(RequestIds.HEADER, id);
        }
        return context.sendResponse();
    }
}
