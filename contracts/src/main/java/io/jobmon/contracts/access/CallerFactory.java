package io.jobmon.contracts.access;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * Reads a {@link Caller} from a validated access token: {@code preferred_username}, the {@code tenant} claim,
 * {@code groups} (Keycloak's group-membership mapper, leading {@code /} dropped) and roles from
 * {@code realm_access.roles} (Keycloak) or a top-level {@code roles} claim.
 *
 * <p>The role {@code service} (read any job) counts only on a token a service client obtained for itself: its
 * authorized party ({@code azp}, or {@code client_id}) must be one of {@code jobmon.auth.service-clients} (default
 * {@code jobmon-diagnosis}). A person's token never carries it in the realm as configured (the console's client maps
 * only {@code user} and {@code admin}); should one carry it anyway, it is dropped here.
 */
public final class CallerFactory {

    public static final String TENANT_CLAIM = "tenant";
    /** Config key: the client ids whose own tokens may carry the role {@code service}. */
    public static final String SERVICE_CLIENTS = "jobmon.auth.service-clients";
    static final List<String> DEFAULT_SERVICE_CLIENTS = List.of("jobmon-diagnosis");

    private CallerFactory() {
    }

    public static Caller fromToken(JsonWebToken token) {
        return fromToken(token, serviceClients());
    }

    /** @param serviceClients client ids whose tokens may carry the role {@code service} */
    public static Caller fromToken(JsonWebToken token, Collection<String> serviceClients) {
        String user = token.getClaim("preferred_username");
        if (user == null) {
            user = token.getSubject();
        }
        Set<String> groups = new LinkedHashSet<>();
        for (String g : strings(token.getClaim("groups"))) {
            groups.add(g.startsWith("/") ? g.substring(1) : g);
        }
        Set<String> roles = new LinkedHashSet<>(strings(token.getClaim("roles")));
        Object realmAccess = token.getClaim("realm_access");
        if (realmAccess instanceof JsonObject ra) {
            roles.addAll(strings(ra.get("roles")));
        }
        if (roles.contains(Caller.SERVICE) && !serviceClients.contains(clientOf(token))) {
            roles.remove(Caller.SERVICE);
        }
        return new Caller(user, stringOf(token.getClaim(TENANT_CLAIM)), groups, roles);
    }

    /** The client the token was issued to: {@code azp} (Keycloak, OIDC), else {@code client_id} (RFC 9068). */
    static String clientOf(JsonWebToken token) {
        String azp = stringOf(token.getClaim("azp"));
        return azp != null ? azp : stringOf(token.getClaim("client_id"));
    }

    /** The configuration last read and its service clients (one pair, replaced together when the application restarts). */
    private record ReadFrom(Config config, Collection<String> clients) {
    }

    private static volatile ReadFrom serviceClients;

    /**
     * The configured service clients, read once per configuration: a lookup walks every config source, which was
     * ~6 % of a cheap request's CPU (a kept chart, JFR 2026-12-05). A restarted application (a test profile) has
     * another configuration object, so it is read again.
     */
    private static Collection<String> serviceClients() {
        Config config;
        try {
            config = ConfigProvider.getConfig();
        } catch (IllegalStateException e) {
            return DEFAULT_SERVICE_CLIENTS; // no configuration (plain unit tests)
        }
        ReadFrom kept = serviceClients;
        if (kept != null && kept.config() == config) {
            return kept.clients();
        }
        Collection<String> clients = Set.copyOf(config.getOptionalValues(SERVICE_CLIENTS, String.class)
                .orElse(DEFAULT_SERVICE_CLIENTS));
        serviceClients = new ReadFrom(config, clients);
        return clients;
    }

    private static String stringOf(Object claim) {
        if (claim instanceof JsonString s) {
            return s.getString();
        }
        if (claim instanceof JsonArray a && !a.isEmpty()) {
            return stringOf(a.get(0));
        }
        return claim == null ? null : claim.toString();
    }

    private static Set<String> strings(Object claim) {
        Set<String> out = new LinkedHashSet<>();
        if (claim instanceof JsonArray array) {
            for (JsonValue v : array) {
                out.add(v instanceof JsonString s ? s.getString() : v.toString());
            }
        } else if (claim instanceof Collection<?> c) {
            c.forEach(v -> out.add(String.valueOf(v)));
        } else if (claim instanceof JsonString s) {
            out.add(s.getString());
        } else if (claim instanceof String s) {
            out.add(s);
        }
        return out;
    }
}
