package io.jobmon.events.support;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jobmon.contracts.events.CloudEvents;

/** JSON kept in the store's columns (pod views, signals, recent events): written and read by one mapper. */
public final class StoredJson {

    /**
     * The mapper of stored JSON. Its maps have data as keys (signal keys, event uids): interning those into the
     * wire mapper's shared field-name table would fill it with millions of one-off names and slow every record's
     * parsing down (it did: a quarter of the ingest time), so this one does not canonicalize names.
     */
    private static final ObjectMapper STORE = CloudEvents.MAPPER.copyWith(JsonFactory.builder()
            .disable(JsonFactory.Feature.CANONICALIZE_FIELD_NAMES).build());

    private StoredJson() {
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
