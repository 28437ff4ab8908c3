package io.jobmon.diagnosis.rest;

import io.jobmon.diagnosis.repository.FeedbackRepository.Feedback;
import java.time.Instant;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A stored verdict: the caller's on {@code GET .../feedback} and as {@code myFeedback} of the diagnosis. */
@Schema(name = "DiagnosisFeedback", requiredProperties = {"diagnosisId", "author", "verdict", "createdAt"})
public record FeedbackView(String diagnosisId, String author,
        @Schema(enumeration = {"ACCURATE", "POOR"}) String verdict, String comment, Instant createdAt) {

    static FeedbackView of(Feedback f) {
        return f == null ? null : new FeedbackView(f.diagnosisId(), f.author(), f.verdict(), f.comment(), f.createdAt());
    }
}
