package io.jobmon.jobs.job.service;

import io.jobmon.contracts.access.AccessRule;
import io.jobmon.contracts.access.Caller;
import io.jobmon.contracts.access.Permission;
import io.jobmon.contracts.i18n.Text;
import io.jobmon.contracts.problem.ApiException;
import io.jobmon.jobs.job.model.JobRecord;
import java.util.Set;

/**
 * The access rule applied to one job: a job the caller may not see does not exist for them (404, with the one text
 * of the suite for an unknown job, so ids do not leak); a job they see but may not act on is a 403.
 */
public final class Access {

    private Access() {
    }

    /** @return the job when it exists and the caller holds {@code needed} on it (404 / 403 otherwise) */
    public static JobRecord require(Caller caller, String id, java.util.Optional<JobRecord> found, Permission needed) {
        JobRecord job = found.orElse(null);
        Set<Permission> granted = job == null ? Set.of() : AccessRule.permissions(caller, job.access());
        if (!granted.contains(Permission.VIEW)) {
            throw ApiException.notFound(Text.of("problem.not-found.job", id));
        }
        if (!granted.contains(needed)) {
            throw ApiException.forbidden(needed == Permission.ACT ? Text.of("problem.forbidden.job", id)
                    : Text.of("job.forbidden.clone", id));
        }
        return job;
    }

    /** A caller whose token carries no tenant sees nothing and may submit nothing. */
    public static void requireTenant(Caller caller) {
        if (caller.tenant() == null || caller.tenant().isBlank() || caller.user() == null) {
            throw ApiException.forbidden(Text.of("job.forbidden.tenant"));
        }
    }
}
