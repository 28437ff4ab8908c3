package io.jobmon.diagnosis.engine;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;
import java.time.Instant;

/**
 * Jackson (de)serialisers that write an {@link Instant} as an RFC 3339 string
 * ({@code 2026-07-13T10:14:59Z}) whatever the {@code ObjectMapper} configuration is, so the
 * diagnosis records need neither {@code JavaTimeModule} nor {@code WRITE_DATES_AS_TIMESTAMPS=false}.
 */
public final class InstantJson {

    private InstantJson() {
    }

    /** Writes {@link Instant#toString()}. */
    public static final class Serializer extends StdSerializer<Instant> {
        private static final long serialVersionUID = 1L;

        public Serializer() {
            super(Instant.class);
        }

        @Override
        public void serialize(Instant value, JsonGenerator gen, SerializerProvider provider) throws IOException {
            gen.writeString(value.toString());
        }
    }

    /** Reads an RFC 3339 string (with {@code Z} or a numeric offset). */
    public static final class Deserializer extends StdDeserializer<Instant> {
        private static final long serialVersionUID = 1L;

        public Deserializer() {
            super(Instant.class);
        }

        @Override
        public Instant deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            String text = p.getValueAsString();
            if (text == null || text.isBlank()) {
                return null;
            }
            Instant parsed = BundleParser.parseInstant(text);
            if (parsed == null) {
                return (Instant) ctxt.handleWeirdStringValue(Instant.class, text, "not an RFC 3339 time");
            }
            return parsed;
        }
    }
}
