package io.jobmon.contracts.i18n;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A human-readable text that jobmon writes, kept as a catalogue key and its arguments and rendered in the reader's
 * language when read ({@link Texts#text}). Stored this way (a status message in a database row, on a Kafka record),
 * a text written while one user reads English is shown in Chinese to the next. An argument is a plain string —
 * a name, an id, a number, or Kubernetes' own words, which are never translated — or another text, rendered in
 * the same language (e.g. what an exit code means). In JSON: {@code {"code": "...", "args": ["x", {"code": ...}]}}.
 *
 * @param code a key of the service's or the common catalogue, e.g. {@code job.message.submitted}
 * @param args the values of its placeholders {@code {0}}, {@code {1}}, ...: strings or texts
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record Text(String code, List<Object> args) {

    public Text {
        if (code == null || code.isBlank()) {
            throw new IllegalArgumentException("a text needs a catalogue key");
        }
        List<Object> clean = new ArrayList<>(args == null ? 0 : args.size());
        if (args != null) {
            for (Object a : args) {
                clean.add(a instanceof Text ? a : a == null ? "" : String.valueOf(a));
            }
        }
        args = List.copyOf(clean);
    }

    /** A text with its arguments: texts stay texts, anything else is written with {@link String#valueOf}. */
    public static Text of(String code, Object... args) {
        return new Text(code, args == null ? List.of() : java.util.Arrays.asList(args));
    }

    /** Reads the JSON form, nested texts included. */
    @JsonCreator
    static Text json(@JsonProperty("code") String code, @JsonProperty("args") List<Object> args) {
        List<Object> out = new ArrayList<>();
        if (args != null) {
            for (Object a : args) {
                out.add(a instanceof Map<?, ?> m && m.get("code") != null
                        ? json(String.valueOf(m.get("code")), castList(m.get("args"))) : a);
            }
        }
        return new Text(code, out);
    }

    @SuppressWarnings("unchecked")
    private static List<Object> castList(Object o) {
        return o instanceof List<?> l ? (List<Object>) l : List.of();
    }
}
