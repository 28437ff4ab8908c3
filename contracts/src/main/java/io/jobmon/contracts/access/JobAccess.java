package io.jobmon.contracts.access;

import java.util.Set;

/** What the access rule needs to know about a job. */
public record JobAccess(String owner, String tenant, String project, Visibility visibility, Set<String> shares) {

    public JobAccess {
        shares = shares == null ? Set.of() : Set.copyOf(shares);
        visibility = visibility == null ? Visibility.PRIVATE : visibility;
    }
}
