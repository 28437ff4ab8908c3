package io.jobmon.logs.follow;

import io.jobmon.contracts.access.Caller;
import io.jobmon.contracts.access.CallerFactory;
import io.jobmon.contracts.http.HttpFilters;
import io.jobmon.contracts.problem.ApiException;
import io.jobmon.contracts.i18n.Text;
import io.jobmon.contracts.problem.Problem;
import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.vertx.ext.web.RoutingContext;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.jboss.logging.Logger;

/** What the streaming routes (follow, download) share: the caller from the token, problems before the first byte. */
final class Routes {

    private static final Logger LOG = Logger.getLogger(Routes.class);

    private Routes() {
    }

    static Caller caller(RoutingContext rc) {
        if (rc.user() instanceof QuarkusHttpUser u && u.getSecurityIdentity().getPrincipal() instanceof JsonWebToken jwt) {
            return CallerFactory.fromToken(jwt);
        }
        throw ApiException.of(401, "unauthorized", Text.of("problem.token-required"));
    }

    static String param(RoutingContext rc, String name) {
        return rc.request().getParam(name);
    }

    /** Answers a failure as a problem if nothing was sent yet; otherwise ends the response. */
    static void fail(RoutingContext rc, Throwable e) {
        if (rc.response().headWritten()) {
            LOG.debugf("stream ended by a failure: %s", e.toString());
            if (!rc.response().ended()) {
                rc.response().end();
            }
            return;
        }
        if (e instanceof ApiException api) {
            HttpFilters.writeProblem(rc, api.toProblem());
        } else {
            LOG.errorf(e, "unexpected error on %s", rc.request().path());
            HttpFilters.writeProblem(rc, Problem.of(500, Text.of("problem.internal")));
        }
    }
}
