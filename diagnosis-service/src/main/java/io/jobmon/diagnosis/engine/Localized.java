package io.jobmon.diagnosis.engine;

import java.util.Locale;

/**
 * A text in English and Chinese.
 *
 * @param en English text
 * @param zh Chinese text (falls back to English when blank)
 */
public record Localized(String en, String zh) {

    public Localized {
        en = en == null ? "" : en;
        zh = zh == null || zh.isBlank() ? en : zh;
    }

    /** The same text in both languages (e.g. a quoted file name). */
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
}
