package io.jobmon.events.ingest;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jobmon.contracts.events.CloudEvents;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/** Small conversions between Java values and the reactive client's column types. */
public final class Sql {

    /** The schema event-ingest owns (Flyway migrates it; every statement names it). */
    public static final String SCHEMA = "events";

    /**
     * The mapper of stored JSON. Its maps have data as keys (signal keys, event uids): interning those into the
     * wire mapper's shared field-name table would fill it with millions of one-off names and slow every record's
     * parsing down (it did: a quarter of the ingest time), so this one does not canonicalize names.
     */
    private static final ObjectMapper STORE = CloudEvents.MAPPER.copyWith(JsonFactory.builder()
            .disable(JsonFactory.Feature.CANONICALIZE_FIELD_NAMES).build());

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
            return STORE.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + value.getClass().getSimpleName(), e);
        }
    }

    /** Reads a JSON column selected as text ({@code col::text}: decoded once, by Jackson, not twice). */
    public static <T> T read(String json, Class<T> type) {
        try {
            return STORE.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot read " + type.getSimpleName(), e);
        }
    }

    public static <T> T read(String json, TypeReference<T> type) {
        try {
            return STORE.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot read " + type.getType(), e);
        }
    }
}
