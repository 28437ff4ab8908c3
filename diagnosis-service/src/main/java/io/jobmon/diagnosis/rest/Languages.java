package io.jobmon.diagnosis.rest;

import io.vertx.ext.web.LanguageHeader;
import jakarta.ws.rs.core.HttpHeaders;
import java.util.List;
import java.util.Locale;

/** The language of a diagnosis' summary and suggestion, from {@code Accept-Language}: Chinese or English. */
final class Languages {

    private Languages() {
    }

    static Locale of(HttpHeaders headers) {
        return of(headers == null ? List.of() : headers.getAcceptableLanguages().stream().map(Locale::getLanguage)
                .toList());
    }

    /** From Vert.x' parsed header, best first. */
    static Locale ofVertx(List<LanguageHeader> wanted) {
        return of(wanted.stream().map(LanguageHeader::tag).toList());
    }

    private static Locale of(List<String> languages) {
        for (String l : languages) {
            if ("zh".equalsIgnoreCase(l)) {
                return Locale.CHINESE;
            }
            if ("en".equalsIgnoreCase(l)) {
                return Locale.ENGLISH;
            }
        }
        return Locale.ENGLISH;
    }
}
