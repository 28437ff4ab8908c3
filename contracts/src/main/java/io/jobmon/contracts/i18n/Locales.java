package io.jobmon.contracts.i18n;

import java.util.List;
import java.util.Locale;

/**
 * The languages jobmon answers in — English and Simplified Chinese — and how a request picks one from
 * {@code Accept-Language} (RFC 9110, quality values honoured): any {@code zh} tag ({@code zh}, {@code zh-CN},
 * {@code zh-Hans}, ...) reads Chinese, any {@code en} tag English; a header naming neither, a malformed one or
 * none gets the configured default ({@code jobmon.i18n.default-locale}).
 */
public final class Locales {

    public static final Locale EN = Locale.ENGLISH;
    public static final Locale ZH_CN = Locale.SIMPLIFIED_CHINESE;
    /** Every language the catalogues are complete in. */
    public static final List<Locale> SUPPORTED = List.of(EN, ZH_CN);

    private Locales() {
    }

    /** The language for a request's {@code Accept-Language}, or {@code fallback}. */
    public static Locale pick(String acceptLanguage, Locale fallback) {
        if (acceptLanguage == null || acceptLanguage.isBlank()) {
            return fallback;
        }
        List<Locale.LanguageRange> ranges;
        try {
            ranges = Locale.LanguageRange.parse(acceptLanguage);
        } catch (IllegalArgumentException e) {
            return fallback;
        }
        for (Locale.LanguageRange r : ranges) { // ordered by weight, best first
            if (r.getWeight() <= 0) {
                continue;
            }
            Locale l = supported(r.getRange());
            if (l != null) {
                return l;
            }
            if (r.getRange().equals("*")) {
                return fallback;
            }
        }
        return fallback;
    }

    /**
     * A configured language tag ({@code en}, {@code zh-CN}, {@code zh}) as a supported locale.
     *
     * @throws IllegalArgumentException for a language jobmon has no catalogue in
     */
    public static Locale parse(String tag) {
        Locale l = tag == null ? null : supported(tag.trim().replace('_', '-'));
        if (l == null) {
            throw new IllegalArgumentException("jobmon speaks en and zh-CN, not '" + tag + "'");
        }
        return l;
    }

    /** The BCP 47 tag of a supported locale: {@code en} or {@code zh-CN}. */
    public static String tag(Locale l) {
        return ZH_CN.equals(l) ? "zh-CN" : "en";
    }

    private static Locale supported(String range) {
        String r = range.toLowerCase(Locale.ROOT);
        if (r.equals("zh") || r.startsWith("zh-")) {
            return ZH_CN;
        }
        if (r.equals("en") || r.startsWith("en-")) {
            return EN;
        }
        return null;
    }
}
