package io.jobmon.contracts.i18n;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Locale;

/** The catalogue in one reader's language: what a response renders its texts with. */
public final class Texts {

    /** A reason's stable code and its one-line explanation in the reader's language. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Explained(String code, String explanation) {
    }

    private final Catalogue catalogue;
    private final Locale locale;

    public Texts(Catalogue catalogue, Locale locale) {
        this.catalogue = catalogue;
        this.locale = locale;
    }

    public Locale locale() {
        return locale;
    }

    /** The text, or null for null. */
    public String text(Text text) {
        return text == null ? null : catalogue.render(locale, text);
    }

    public String text(String code, Object... args) {
        return catalogue.render(locale, Text.of(code, args));
    }

    public String text(String code, List<?> args) {
        return catalogue.render(locale, code, args == null ? List.of() : args);
    }

    /** A reason's code and explanation, or null when the reason is unknown or absent. */
    public Explained reason(String reason, String message) {
        String code = Reasons.code(reason, message);
        return code == null ? null : new Explained(code, catalogue.render(locale, Reasons.KEY_PREFIX + code, List.of()));
    }
}
