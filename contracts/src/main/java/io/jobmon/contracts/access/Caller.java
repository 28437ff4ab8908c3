package io.jobmon.contracts.access;

import java.util.Set;

/**
 * Who is calling, as the platform understands the bearer token.
 *
 * @param user {@code preferred_username}
 * @param tenant the {@code tenant} claim; a caller never sees another tenant's data
 * @param groups project groups ({@code groups} claim), e.g. {@code project-nlp}
 * @param roles platform roles: {@code user}, {@code admin}; {@code service} for a platform service's own token
 *        (client credentials of a confidential client named in {@code jobmon.auth.service-clients})
 */
public record Caller(String user, String tenant, Set<String> groups, Set<String> roles) {

    public static final String ADMIN = "admin";
    /** The role of a platform service's own identity: it may read any job, and do nothing else. */
    public static final String SERVICE = "service";

    public Caller {
        groups = groups == null ? Set.of() : Set.copyOf(groups);
        roles = roles == null ? Set.of() : Set.copyOf(roles);
    }

    public boolean isAdmin() {
        return roles.contains(ADMIN);
    }

    /** A platform service (e.g. diagnosis-service's automatic diagnoses), not a person. */
    public boolean isService() {
        return roles.contains(SERVICE);
    }

    public boolean inGroup(String group) {
        return group != null && groups.contains(group);
    }
}
