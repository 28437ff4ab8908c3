package io.jobmon.contracts.events;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.jobmon.contracts.problem.JsonErrors;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/** Encodes and decodes the structured-mode CloudEvents that travel on every jobmon topic. */
public final class CloudEvents {

    /** One mapper for the wire format: ISO-8601 times, unknown fields tolerated (forward compatible). */
    public static final ObjectMapper MAPPER = new ObjectMapper()
            .registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /** {@code CloudEvent<T>} per data type, built once. */
    private static final Map<Class<?>, JavaType> TYPES = new ConcurrentHashMap<>();

    private CloudEvents() {
    }

    public static <T> CloudEvent<T> wrap(String source, String type, String subject, T data) {
        return new CloudEvent<>(CloudEvent.SPEC_VERSION, UUID.randomUUID().toString(), source, type, subject,
                Instant.now(), CloudEvent.JSON, data);
    }

    public static String encode(CloudEvent<?> event) {
        return toJson(event);
    }

    /** Any value as JSON in the suite's wire format. */
    public static String toJson(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot encode " + value.getClass().getSimpleName(), e);
        }
    }

    public static <T> String encode(String source, String type, String subject, T data) {
        return encode(wrap(source, type, subject, data));
    }

    /**
     * Decodes a record value into an envelope whose data is {@code dataType}.
     *
     * @throws InvalidRecordException with a reason a person can act on when the value is not such an event
     */
    public static <T> CloudEvent<T> decode(String value, Class<T> dataType) {
        if (value == null || value.isBlank()) {
            throw new InvalidRecordException("empty record value");
        }
        // One streaming read straight into the records (no intermediate tree): this runs for every record.
        CloudEvent<T> event;
        try {
            event = MAPPER.readerFor(eventType(dataType)).readValue(value);
        } catch (JsonParseException e) {
            throw new InvalidRecordException("not JSON: " + e.getOriginalMessage());
        } catch (JsonProcessingException e) {
            if (e.getCause() instanceof InvalidRecordException invalid) {
                throw invalid;
            }
            if (e instanceof MismatchedInputException m && m.getPath().isEmpty()) {
                throw new InvalidRecordException("not a CloudEvent: a JSON object is expected");
            }
            String msg = e.getCause() != null && !(e.getCause() instanceof JsonProcessingException)
                    ? e.getCause().getMessage() : JsonErrors.describe(e);
            throw new InvalidRecordException("invalid " + dataType.getSimpleName() + ": " + msg);
        } catch (IllegalArgumentException e) {
            throw new InvalidRecordException("invalid " + dataType.getSimpleName() + ": " + e.getMessage());
        }
        if (event == null || event.data() == null) {
            throw new InvalidRecordException("not a CloudEvent: missing 'data'");
        }
        if (event.id() == null) {
            throw new InvalidRecordException("not a CloudEvent: missing 'id'");
        }
        if (event.data() instanceof Validatable v) {
            v.validate();
        }
        return event;
    }

    private static JavaType eventType(Class<?> dataType) {
        return TYPES.computeIfAbsent(dataType,
                t -> MAPPER.getTypeFactory().constructParametricType(CloudEvent.class, t));
    }
}
