package io.jobmon.gateway.access;

import io.jobmon.contracts.access.Caller;
import io.jobmon.contracts.access.CallerFactory;
import io.jobmon.contracts.http.HttpFilters;
import io.jobmon.contracts.i18n.Text;
import io.jobmon.contracts.problem.ApiException;
import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Collection;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * The public API is for people. A service identity (the role {@code service}: diagnosis-service's client credentials)
 * calls the services directly inside the cluster; at the gateway it is a 403 problem, reading included, as is any token
 * that names no user or no tenant (it could only read across tenants). Runs after the token check and before anything
 * is forwarded or answered ({@code /api/v1/me} included).
 */
@ApplicationScoped
public class PeopleOnly {

    /** Before ProxyRoutes (10) and the REST resources. */
    static final int ORDER = 5;

    void register(@Observes Router router) {
        router.route("/api/*").order(ORDER).handler(this::check);
    }

    private void check(RoutingContext rc) {
        if (rc.user() instanceof QuarkusHttpUser u && u.getSecurityIdentity().getPrincipal() instanceof JsonWebToken jwt
                && !isPerson(jwt)) {
            HttpFilters.writeProblem(rc, ApiException.of(403, "service-identity", Text.of("gateway.people-only")).toProblem());
            return;
        }
        rc.next(); // no token: the security policy has already answered (401), or the path needs none
    }

    /** A person's token: a user and a tenant, no {@code service} role (whichever client obtained it). */
    static boolean isPerson(JsonWebToken jwt) {
        Caller c = CallerFactory.fromToken(jwt);
        return c.user() != null && !c.user().isBlank() && c.tenant() != null && !c.tenant().isBlank()
                && !c.isService() && !rawRoles(jwt).contains(Caller.SERVICE);
    }

    /** The token's roles as written (CallerFactory drops {@code service} on a token of a client not listed). */
    private static Collection<?> rawRoles(JsonWebToken jwt) {
        java.util.Set<Object> out = new java.util.HashSet<>();
        Object top = jwt.getClaim("roles");
        if (top instanceof Collection<?> c) {
            c.forEach(v -> out.add(strip(v)));
        }
        if (jwt.getClaim("realm_access") instanceof jakarta.json.JsonObject ra && ra.get("roles") instanceof Collection<?> c) {
            c.forEach(v -> out.add(strip(v)));
        }
        return out;
    }

    private static String strip(Object v) {
        return v instanceof jakarta.json.JsonString s ? s.getString() : String.valueOf(v);
    }
}
