package io.jobmon.diagnosis.engine;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/**
 * The engine's one JSON helper: reading bundles within size limits, RFC 3339 times, Jackson (de)serialisers that write an {@link Instant} as such a
 * string whatever the {@code ObjectMapper} configuration is (so the diagnosis records need neither
 * {@code JavaTimeModule} nor {@code WRITE_DATES_AS_TIMESTAMPS=false}), and the typed readers of optional fields the
 * {@link BundleParser} uses, each naming the JSON path of a value of the wrong type.
 */
public final class EngineJson {

    /** Reads evidence bundles: limits that fit bundles of tens of megabytes (long log lines), bounded nesting. */
    private static final ObjectMapper BUNDLE_MAPPER = JsonMapper.builder().build();

    static {
        BUNDLE_MAPPER.getFactory().setStreamReadConstraints(StreamReadConstraints.builder()
                .maxStringLength(64 * 1024 * 1024).maxNestingDepth(64).build());
    }

    private EngineJson() {
    }

    /** Parses a bundle's bytes; {@link MalformedJson} (the REST layer answers 400 with the parser's message). */
    public static JsonNode readBundle(byte[] json) {
        try {
            return BUNDLE_MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new MalformedJson(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A bundle that is not JSON. */
    public static final class MalformedJson extends RuntimeException {
        public MalformedJson(JsonProcessingException cause) {
            super(cause.getOriginalMessage(), cause, false, false);
        }
    }

    /** Parses an RFC 3339 time ({@code Z} or offset, {@code T} or space); {@code null} if it is not one. */
    public static Instant parseInstant(String text) {
        String s = text.trim();
        try {
            return Instant.parse(s);
        } catch (DateTimeParseException e) {
            try {
                return OffsetDateTime.parse(s.replace(' ', 'T').replace('z', 'Z')).toInstant();
            } catch (DateTimeParseException e2) {
                return null;
            }
        }
    }

    /** Writes the API's one time format, RFC 3339 UTC to the millisecond ({@code ApiJson.TIME}). */
    public static final class InstantSerializer extends StdSerializer<Instant> {
        private static final long serialVersionUID = 1L;

        public InstantSerializer() {
            super(Instant.class);
        }

        @Override
        public void serialize(Instant value, JsonGenerator gen, SerializerProvider provider) throws IOException {
            gen.writeString(io.jobmon.contracts.http.ApiJson.TIME.format(value));
        }
    }

    /** Reads an RFC 3339 string (with {@code Z} or a numeric offset). */
    public static final class InstantDeserializer extends StdDeserializer<Instant> {
        private static final long serialVersionUID = 1L;

        public InstantDeserializer() {
            super(Instant.class);
        }

        @Override
        public Instant deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            String text = p.getValueAsString();
            if (text == null || text.isBlank()) {
                return null;
            }
            Instant parsed = parseInstant(text);
            if (parsed == null) {
                return (Instant) ctxt.handleWeirdStringValue(Instant.class, text, "not an RFC 3339 time");
            }
            return parsed;
        }
    }

    static JsonNode requireObject(JsonNode n, String path) {
        if (n == null || !n.isObject()) {
            throw new BundleValidationException(path, "json.expected.object", "must be an object");
        }
        return n;
    }

    static JsonNode object(JsonNode parent, String key, String path) {
        JsonNode n = parent.get(key);
        if (n == null || n.isNull()) {
            return null;
        }
        return requireObject(n, path);
    }

    static String text(JsonNode parent, String key, String path) {
        JsonNode n = parent.get(key);
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isTextual()) {
            throw new BundleValidationException(path, "json.expected.string", "must be a string");
        }
        return n.asText();
    }

    static String scalarText(JsonNode parent, String key, String path) {
        JsonNode n = parent.get(key);
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isTextual() && !n.isNumber()) {
            throw new BundleValidationException(path, "bundle.string-or-number", "must be a string or a number");
        }
        return n.asText();
    }

    static Instant time(JsonNode parent, String key, String path) {
        String s = text(parent, key, path);
        if (s == null || s.isBlank()) {
            return null;
        }
        Instant t = parseInstant(s);
        if (t == null) {
            throw new BundleValidationException(path, "json.expected.time",
                    "must be an RFC 3339 time, got '" + s + "'");
        }
        return t;
    }

    static Integer integer(JsonNode parent, String key, String path) {
        JsonNode n = parent.get(key);
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isIntegralNumber() || !n.canConvertToInt()) {
            throw new BundleValidationException(path, "json.expected.integer", "must be an integer");
        }
        return n.asInt();
    }

    static Boolean bool(JsonNode parent, String key, String path) {
        JsonNode n = parent.get(key);
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isBoolean()) {
            throw new BundleValidationException(path, "json.expected.boolean", "must be a boolean");
        }
        return n.asBoolean();
    }
}
