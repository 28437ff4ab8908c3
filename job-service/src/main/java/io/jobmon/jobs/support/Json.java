package io.jobmon.jobs.support;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import io.jobmon.contracts.events.CloudEvents;

/** JSON for stored columns and cursors, in the suite's wire format. */
public final class Json {

    private Json() {
    }

    public static String write(Object value) {
        try {
            return CloudEvents.MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + value.getClass().getSimpleName(), e);
        }
    }

    public static <T> T read(String json, Class<T> type) {
        try {
            return CloudEvents.MAPPER.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot read " + type.getSimpleName(), e);
        }
    }

    public static <T> T read(String json, TypeReference<T> type) {
        try {
            return CloudEvents.MAPPER.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot read stored JSON", e);
        }
    }
}
