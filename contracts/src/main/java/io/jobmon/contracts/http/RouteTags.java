package io.jobmon.contracts.http;

import io.vertx.core.http.impl.HttpServerRequestInternal;
import io.vertx.ext.web.RoutingContext;

/**
 * The {@code uri} tag of {@code http_server_requests}: a route template, never a raw path. Quarkus' Micrometer binder
 * takes the template a REST resource matched, or a Vert.x route's {@code :param} path, from the request's context
 * (key {@value #TEMPLATE}); a request that no route matched would be tagged with its raw path, so a client sending
 * many distinct bad paths could fill the tag limit ({@code max-uri-tags}) and push the real routes out. Every answer
 * such a request gets (a refusal before routing, a failure, the 404 of no route) is tagged {@value #UNMATCHED}.
 */
public final class RouteTags {

    /** Where Quarkus REST leaves the matched template and Quarkus' Micrometer binder reads it. */
    public static final String TEMPLATE = "UrlPathTemplate";
    /** Where Quarkus' Micrometer binder keeps the Vert.x route the request was routed to. */
    static final String VERTX_ROUTE = "VertxRoute";
    /** The one tag of every request that matched no route. */
    public static final String UNMATCHED = "/{unmatched}";

    private RouteTags() {
    }

    /** Tags the request with {@code template} (a route of its own that Quarkus cannot see, e.g. a proxy's). */
    public static void template(RoutingContext rc, String template) {
        if (rc.request() instanceof HttpServerRequestInternal r) {
            r.context().putLocal(TEMPLATE, template);
        }
    }

    /** Tags the request {@link #UNMATCHED} unless a route template is known for it already. */
    public static void unlessRouted(RoutingContext rc) {
        if (!(rc.request() instanceof HttpServerRequestInternal r)) {
            return;
        }
        Object template = r.context().getLocal(TEMPLATE);
        Object route = r.context().getLocal(VERTX_ROUTE);
        if (template == null && !(route instanceof String s && s.contains(":"))) {
            r.context().putLocal(TEMPLATE, UNMATCHED);
        }
    }
}
