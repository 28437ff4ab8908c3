package io.jobmon.contracts.access;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * Reads a {@link Caller} from a validated access token: {@code preferred_username}, the {@code tenant} claim,
 * {@code groups} (Keycloak's group-membership mapper, leading {@code /} dropped) and roles from
 * {@code realm_access.roles} (Keycloak) or a top-level {@code roles} claim.
 */
public final class CallerFactory {

    public static final String TENANT_CLAIM = "tenant";

    private CallerFactory() {
    }

    public static Caller fromToken(JsonWebToken token) {
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
        return new Caller(user, stringOf(token.getClaim(TENANT_CLAIM)), groups, roles);
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
