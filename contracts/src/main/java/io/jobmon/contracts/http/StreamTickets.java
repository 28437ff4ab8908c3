package io.jobmon.contracts.http;

import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.HttpSecurityPolicy;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The one request of the API that may come without a bearer token: a browser's {@code EventSource} following a job's
 * log with a stream ticket ({@code GET /api/v1/jobs/{id}/logs/stream?ticket=…}, no {@code Authorization} header; ADR
 * 0027). log-service redeems the ticket (single use, one job, short-lived); the gateway only lets the request through.
 * As the HTTP security policy {@code stream-ticket} of the follow's path it permits exactly that form and treats every
 * other request there as the {@code /api} permission would: a valid token with one of {@code
 * jobmon.http.stream-ticket.roles-allowed}.
 */
@ApplicationScoped
public class StreamTickets implements HttpSecurityPolicy {

    /** Config key: whether this server takes the ticket form at all (the gateway and log-service do). */
    public static final String ENABLED = "jobmon.http.stream-ticket.enabled";
    /** The query parameter that carries the ticket. */
    public static final String PARAM = "ticket";
    private static final Pattern FOLLOW = Pattern.compile("/api/v1/jobs/[^/]+/logs/stream");

    private final Set<String> rolesAllowed;

    public StreamTickets(@ConfigProperty(name = "jobmon.http.stream-ticket.roles-allowed", defaultValue = "user,admin")
            List<String> rolesAllowed) {
        this.rolesAllowed = Set.copyOf(rolesAllowed);
    }

    @Override
    public String name() {
        return "stream-ticket";
    }

    /** A GET of a job's follow with a non-empty ticket and no {@code Authorization} header. */
    public static boolean isTicketFollow(RoutingContext rc) {
        String path = rc.normalizedPath();
        if (rc.request().method() != HttpMethod.GET || path == null || !FOLLOW.matcher(path).matches()
                || rc.request().getHeader("Authorization") != null) {
            return false;
        }
        List<String> tickets = rc.queryParam(PARAM);
        return tickets.size() == 1 && !tickets.get(0).isBlank();
    }

    @Override
    public Uni<CheckResult> checkPermission(RoutingContext rc, Uni<SecurityIdentity> identity,
            AuthorizationRequestContext context) {
        if (isTicketFollow(rc)) {
            return CheckResult.permit();
        }
        return identity.map(id -> !id.isAnonymous() && id.getRoles().stream().anyMatch(rolesAllowed::contains)
                ? CheckResult.PERMIT : CheckResult.DENY);
    }
}
