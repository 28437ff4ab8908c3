package io.jobmon.contracts.events;

import java.time.Instant;

/**
 * A finished diagnosis on {@code jobmon.diagnoses}; job-service takes {@code category} as the failure reason.
 *
 * @param trigger {@code USER}, {@code JOB_FAILED} (automatic on FAILED/ABNORMAL) or {@code PERIODIC}
 * @param action RESTART, TERMINATE, RESUBMIT_DEBUG, WAIT, CONTACT_ADMIN or NONE
 */
public record DiagnosisFinished(String diagnosisId, String jobId, String trigger, String category, String action,
        String summary, double confidence, Instant finishedAt) implements Validatable {

    public static final String TYPE = "io.jobmon.diagnosis.finished.v1";

    @Override
    public void validate() {
        Validatable.require(diagnosisId != null, "missing 'diagnosisId'");
        Validatable.require(jobId != null, "missing 'jobId'");
        Validatable.require(category != null, "missing 'category'");
    }
}
