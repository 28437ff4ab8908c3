package io.jobmon.diagnosis.engine;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Objects;

/**
 * The answer of the {@link DiagnosisEngine} in one language: one root-cause category, quoted evidence, a
 * suggestion, the action to take, a confidence in [0, 1] and related categories. The same analysis in both
 * languages is a {@link BilingualDiagnosis}; {@link BilingualDiagnosis#in(java.util.Locale)} gives this.
 *
 * <p>Serialises with any Jackson {@code ObjectMapper} to exactly the contract's JSON
 * ({@code category, summary, evidence, suggestion, action, confidence, related}); enums are written
 * as their names and evidence times as RFC 3339 strings (see {@link Evidence} and
 * {@link EngineJson}), so the REST layer does not need to register {@code JavaTimeModule} for it.
 *
 * @param category   the root cause
 * @param summary    one line, in the requested language
 * @param evidence   at most a handful of quoted items that decided it
 * @param suggestion what the user (or admin) should do, in the requested language
 * @param action     what should happen next
 * @param confidence 0..1
 * @param related    other categories seen in the evidence (symptoms or secondary findings)
 */
@JsonPropertyOrder({"category", "summary", "evidence", "suggestion", "action", "confidence", "related"})
public record Diagnosis(
        Category category,
        String summary,
        List<Evidence> evidence,
        String suggestion,
        Action action,
        double confidence,
        List<Category> related) {

    public Diagnosis {
        Objects.requireNonNull(category, "category");
        Objects.requireNonNull(action, "action");
        evidence = evidence == null ? List.of() : List.copyOf(evidence);
        related = related == null ? List.of() : List.copyOf(related);
        if (!(confidence >= 0.0 && confidence <= 1.0)) {
            throw new IllegalArgumentException("confidence must be in [0, 1]: " + confidence);
        }
    }
}
