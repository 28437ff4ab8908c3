package io.jobmon.contracts.access;

import java.util.Set;

/**
 * Who is calling, as the platform understands the bearer token.
 *
 * @param user {@code preferred_username}
 * @param tenant the {@code tenant} claim; a caller never sees another tenant's data
 * @param groups project groups ({@code groups} claim), e.g. {@code project-nlp}
 * @param roles platform roles: {@code user}, {@code admin}
 */
public record Caller(String user, String tenant, Set<String> groups, Set<String> roles) {

    public static final String ADMIN = "admin";

    public Caller {
        groups = groups == null ? Set.of() : Set.copyOf(groups);
        roles = roles == null ? Set.of() : Set.copyOf(roles);
    }

    public boolean isAdmin() {
        return roles.contains(ADMIN);
    }

    public boolean inGroup(String group) {
        return group != null && groups.contains(group);
    }
}
