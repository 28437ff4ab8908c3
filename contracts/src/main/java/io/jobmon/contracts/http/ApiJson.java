package io.jobmon.contracts.http;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.KeyDeserializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import com.fasterxml.jackson.databind.type.LogicalType;
import io.jobmon.contracts.problem.JsonErrors;
import io.quarkus.jackson.ObjectMapperCustomizer;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * The one JSON configuration of the API of every service (Quarkus' {@code ObjectMapper}; the Kafka wire format is
 * {@code CloudEvents.MAPPER}):
 * <ul>
 * <li>strict input: a value of the wrong JSON type is refused, never coerced ({@code "name": 123},
 * {@code "replicas": "3"}, {@code "supportsRestart": -1}, {@code "replicas": 1.5}, an enum by its index, a
 * {@code null} for a number that must be there) — a 400 naming the field;</li>
 * <li>a string or map key holding a NUL character ({@code \u0000}) is refused (PostgreSQL cannot store it);</li>
 * <li>times are written RFC 3339 in UTC with exactly millisecond precision: {@code 2026-01-31T08:00:00.000Z}.</li>
 * </ul>
 */
@Singleton
public class ApiJson implements ObjectMapperCustomizer {

    /** {@code 2026-01-31T08:00:00.123Z}. */
    public static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(ZoneOffset.UTC);

    /**
     * The same rules for what is written outside a REST resource (server-sent events, Vert.x routes): an answer's
     * times never depend on which writer made it. Kafka records keep {@code CloudEvents.MAPPER} (full precision).
     */
    public static final ObjectMapper MAPPER = configure(new ObjectMapper().findAndRegisterModules()
            .disable(com.fasterxml.jackson.databind.SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES));

    /** {@code value} as JSON text by {@link #MAPPER}. */
    public static String toJson(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("not writable as JSON: " + value.getClass().getName(), e);
        }
    }

    /** An instant in the API's one format. */
    public static String time(Instant t) {
        return TIME.format(t);
    }

    @Override
    public void customize(ObjectMapper mapper) {
        configure(mapper);
    }

    /** Applied after Quarkus' own customizers (which register the Java time module): these rules win. */
    @Override
    public int priority() {
        return MINIMUM_PRIORITY;
    }

    /** Applies the API's rules to a mapper (also for tests and plain Jackson users). */
    public static ObjectMapper configure(ObjectMapper mapper) {
        SimpleModule module = new SimpleModule("jobmon-api");
        module.addDeserializer(String.class, new StrictString());
        module.addKeyDeserializer(String.class, new NulFreeKey());
        module.addSerializer(Instant.class, new InstantMillis());
        module.addSerializer(OffsetDateTime.class, new OffsetMillis());
        mapper.registerModule(module);
        mapper.enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .enable(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT);
        for (LogicalType t : new LogicalType[] {LogicalType.Integer, LogicalType.Float, LogicalType.Boolean,
                LogicalType.Enum, LogicalType.DateTime}) {
            mapper.coercionConfigFor(t)
                    .setCoercion(CoercionInputShape.String, t == LogicalType.Enum || t == LogicalType.DateTime
                            ? CoercionAction.TryConvert : CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Integer, t == LogicalType.Integer || t == LogicalType.Float
                            ? CoercionAction.TryConvert : CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Float, t == LogicalType.Float
                            ? CoercionAction.TryConvert : CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Boolean, t == LogicalType.Boolean
                            ? CoercionAction.TryConvert : CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail);
        }
        return mapper;
    }

    /** A JSON string, nothing else; without NUL characters. */
    static final class StrictString extends StdScalarDeserializer<String> {

        StrictString() {
            super(String.class);
        }

        @Override
        public String deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (p.hasToken(JsonToken.VALUE_STRING)) {
                String s = p.getText();
                if (s.indexOf('\u0000') >= 0) {
                    throw new InvalidFormatException(p, JsonErrors.NUL_MESSAGE, s, String.class);
                }
                return s;
            }
            return (String) ctxt.handleUnexpectedToken(String.class, p);
        }

        @Override
        public LogicalType logicalType() {
            return LogicalType.Textual;
        }
    }

    /** A map key without NUL characters. */
    static final class NulFreeKey extends KeyDeserializer {
        @Override
        public Object deserializeKey(String key, DeserializationContext ctxt) throws IOException {
            if (key.indexOf('\u0000') >= 0) {
                throw new InvalidFormatException(ctxt.getParser(), JsonErrors.NUL_MESSAGE, key, String.class);
            }
            return key;
        }
    }

    static final class InstantMillis extends StdSerializer<Instant> {
        InstantMillis() {
            super(Instant.class);
        }

        @Override
        public void serialize(Instant value, JsonGenerator gen, SerializerProvider provider) throws IOException {
            gen.writeString(TIME.format(value));
        }
    }

    static final class OffsetMillis extends StdSerializer<OffsetDateTime> {
        OffsetMillis() {
            super(OffsetDateTime.class);
        }

        @Override
        public void serialize(OffsetDateTime value, JsonGenerator gen, SerializerProvider provider) throws IOException {
            gen.writeString(TIME.format(value.toInstant()));
        }
    }
}
