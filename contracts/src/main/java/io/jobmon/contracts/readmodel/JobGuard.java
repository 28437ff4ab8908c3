package io.jobmon.contracts.readmodel;

import io.jobmon.contracts.access.AccessRule;
import io.jobmon.contracts.access.Caller;
import io.jobmon.contracts.access.JobAccess;
import io.jobmon.contracts.access.Permission;
import io.jobmon.contracts.i18n.Text;
import io.jobmon.contracts.problem.ApiException;
import io.smallrye.mutiny.Uni;
import java.util.Optional;

/** Applies the access rule to a job through the local {@link JobAccessStore}: no call to job-service. */
public class JobGuard {

    private final JobAccessStore store;

    public JobGuard(JobAccessStore store) {
        this.store = store;
    }

    /**
     * The job's access facts when the caller may do {@code permission} to it.
     *
     * @return a failed Uni with {@link ApiException#notFound} when the job is unknown, deleted or invisible to the
     *         caller, {@link ApiException#forbidden} when the caller sees it but lacks the permission
     */
    public Uni<JobAccess> require(Caller caller, String jobId, Permission permission) {
        return store.find(jobId).map(found -> check(caller, jobId, found, permission));
    }

    /**
     * The same rule on access facts the caller read itself (a replica's kept copy of them, for one).
     *
     * @throws ApiException as {@link #require} fails
     */
    public static JobAccess check(Caller caller, String jobId, Optional<JobAccess> found, Permission permission) {
        JobAccess job = found.orElse(null);
        if (job == null || !AccessRule.canView(caller, job)) {
            throw ApiException.notFound(Text.of("problem.not-found.job", jobId));
        }
        if (!AccessRule.may(caller, job, permission)) {
            throw ApiException.forbidden(Text.of("problem.forbidden.job", jobId));
        }
        return job;
    }
}
