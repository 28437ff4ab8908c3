package io.jobmon.events.ingest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import io.jobmon.contracts.events.CloudEvents;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/** Small conversions between Java values and the reactive client's column types. */
public final class Sql {

    /** The schema event-ingest owns (Flyway migrates it; every statement names it). */
    public static final String SCHEMA = "events";

    private Sql() {
    }

    public static OffsetDateTime ts(Instant i) {
        return i == null ? null : i.atOffset(ZoneOffset.UTC);
    }

    public static Instant instant(OffsetDateTime t) {
        return t == null ? null : t.toInstant();
    }

    public static String json(Object value) {
        try {
            return CloudEvents.MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + value.getClass().getSimpleName(), e);
        }
    }

    public static <T> T read(Object json, Class<T> type) {
        try {
            return CloudEvents.MAPPER.readValue(json.toString(), type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot read " + type.getSimpleName(), e);
        }
    }

    public static <T> T read(Object json, TypeReference<T> type) {
        try {
            return CloudEvents.MAPPER.readValue(json.toString(), type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot read " + type.getType(), e);
        }
    }
}
