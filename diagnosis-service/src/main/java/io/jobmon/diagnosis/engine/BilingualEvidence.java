package io.jobmon.diagnosis.engine;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.time.Instant;
import java.util.Locale;
import java.util.Objects;

/**
 * One piece of evidence in both languages: a quoted log line, event or pod state (the same text in both), or a
 * description the engine wrote (a metric window, a speed, a silence) in English and Chinese.
 *
 * <p>JSON: {@code {"source": "metric", "time": "...", "pod": "w-0", "text": {"en": "...", "zh": "..."}}}.
 *
 * @param source one of {@link Evidence#LOG}, {@link Evidence#EVENT}, {@link Evidence#POD}, {@link Evidence#METRIC},
 *               {@link Evidence#JOB}
 * @param time   when it was observed, or {@code null}
 * @param pod    the pod it concerns, or {@code null}
 * @param text   the text in both languages
 */
@JsonPropertyOrder({"source", "time", "pod", "text"})
public record BilingualEvidence(
        String source,
        @JsonSerialize(using = EngineJson.InstantSerializer.class)
        @JsonDeserialize(using = EngineJson.InstantDeserializer.class)
        Instant time,
        String pod,
        Localized text) {

    public BilingualEvidence {
        Objects.requireNonNull(source, "source");
        text = text == null ? Localized.of("") : text;
    }

    /** Quoted text, the same in both languages. */
    static BilingualEvidence quote(String source, Instant time, String pod, String text) {
        return new BilingualEvidence(source, time, pod, Localized.of(text));
    }

    /** The contract's evidence item in one language. */
    public Evidence in(Locale locale) {
        return new Evidence(source, time, pod, text.in(locale));
    }
}
