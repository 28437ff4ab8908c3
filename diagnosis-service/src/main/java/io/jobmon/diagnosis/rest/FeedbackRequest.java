package io.jobmon.diagnosis.rest;

/**
 * Body of {@code POST /api/v1/diagnoses/{id}/feedback}.
 *
 * @param verdict {@code ACCURATE} or {@code POOR}
 * @param comment what was wrong or right, for the platform team improving the pattern catalogue
 */
@org.eclipse.microprofile.openapi.annotations.media.Schema(name = "DiagnosisFeedbackRequest", requiredProperties = "verdict")
public record FeedbackRequest(Verdict verdict, String comment) {

    /** Was the diagnosis right? */
    @org.eclipse.microprofile.openapi.annotations.media.Schema(name = "DiagnosisVerdict")
    public enum Verdict {
        ACCURATE, POOR
    }
}
