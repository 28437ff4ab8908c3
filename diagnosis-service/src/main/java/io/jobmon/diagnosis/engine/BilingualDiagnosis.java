package io.jobmon.diagnosis.engine;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * One analysis in both languages: what {@link DiagnosisEngine#analyzeBilingual(EvidenceBundle)} returns. Automatic
 * diagnoses have no reader whose language is known, so the service keeps this and renders the contract's
 * {@link Diagnosis} in the reader's language later with {@link #in(Locale)}. Category, action, confidence and related
 * categories do not depend on the language; summary, suggestion and the evidence texts the engine wrote do.
 *
 * <p>JSON (any Jackson {@code ObjectMapper}): {@code {"category", "summary": {"en", "zh"}, "evidence": [{"source",
 * "time", "pod", "text": {"en", "zh"}}], "suggestion": {"en", "zh"}, "action", "confidence", "related"}}.
 */
@JsonPropertyOrder({"category", "summary", "evidence", "suggestion", "action", "confidence", "related"})
public record BilingualDiagnosis(
        Category category,
        Localized summary,
        List<BilingualEvidence> evidence,
        Localized suggestion,
        Action action,
        double confidence,
        List<Category> related) {

    public BilingualDiagnosis {
        Objects.requireNonNull(category, "category");
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(summary, "summary");
        Objects.requireNonNull(suggestion, "suggestion");
        evidence = evidence == null ? List.of() : List.copyOf(evidence);
        related = related == null ? List.of() : List.copyOf(related);
        if (!(confidence >= 0.0 && confidence <= 1.0)) {
            throw new IllegalArgumentException("confidence must be in [0, 1]: " + confidence);
        }
    }

    /** The contract's diagnosis in {@code locale}: Chinese for any {@code zh} locale, English otherwise. */
    public Diagnosis in(Locale locale) {
        return new Diagnosis(category, summary.in(locale), evidence.stream().map(e -> e.in(locale)).toList(),
                suggestion.in(locale), action, confidence, related);
    }

    /** {@link #in(Locale)} in English. */
    public Diagnosis english() {
        return in(Locale.ENGLISH);
    }

    /** {@link #in(Locale)} in Simplified Chinese. */
    public Diagnosis chinese() {
        return in(Locale.SIMPLIFIED_CHINESE);
    }
}
