package io.jobmon.diagnosis.engine;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Locale;

/**
 * A text in English and Chinese; JSON {@code {"en": "...", "zh": "..."}}.
 *
 * @param en English text
 * @param zh Chinese text (falls back to English when blank)
 */
@JsonPropertyOrder({"en", "zh"})
public record Localized(String en, String zh) {

    public Localized {
        en = en == null ? "" : en;
        zh = zh == null || zh.isBlank() ? en : zh;
    }

    /** The same text in both languages (e.g. a quoted log line or file name). */
    public static Localized of(String neutral) {
        return new Localized(neutral, neutral);
    }

    /** Chinese for any locale whose language is {@code zh}, English otherwise. */
    public String in(Locale locale) {
        return isChinese(locale) ? zh : en;
    }

    static boolean isChinese(Locale locale) {
        return locale != null && "zh".equalsIgnoreCase(locale.getLanguage());
    }

    boolean isEmpty() {
        return en.isEmpty();
    }

    /** Both texts joined with {@code sep} / {@code sepZh} after this one's (empty parts are skipped). */
    Localized append(String sep, String sepZh, Localized more) {
        if (more == null || more.isEmpty()) {
            return this;
        }
        if (isEmpty()) {
            return more;
        }
        return new Localized(en + sep + more.en, zh + sepZh + more.zh);
    }
}
