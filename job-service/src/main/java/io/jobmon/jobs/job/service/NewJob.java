package io.jobmon.jobs.job.service;

import io.jobmon.jobs.job.model.AttemptCause;
import io.jobmon.jobs.job.model.JobSpec;

/**
 * A job about to be created: a checked, defaulted spec and where it comes from.
 *
 * @param rootId the chain it joins, or null to start a new chain
 * @param retryCount automatic attempts the chain will have used with this one
 * @param shares users it is shared with from the start (a resubmit or restart keeps its predecessor's shares)
 */
public record NewJob(JobSpec spec, String tenant, String owner, AttemptCause cause, String rootId, int attempt,
        String previousId, String clonedFrom, String diagnosisId, int retryCount, String idempotencyKey,
        java.util.List<String> shares) {

    public static NewJob first(JobSpec spec, String tenant, String owner, String idempotencyKey, String clonedFrom) {
        return new NewJob(spec, tenant, owner, AttemptCause.INITIAL, null, 1, null, clonedFrom, null, 0,
                idempotencyKey, java.util.List.of());
    }
}
