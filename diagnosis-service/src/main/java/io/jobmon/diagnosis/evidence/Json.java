package io.jobmon.diagnosis.evidence;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/** Small lenient readers for the other services' JSON: the first present field of several names, times, lists. */
final class Json {

    static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private Json() {
    }

    /** The items of a list answer: a bare array, or the array under one of {@code keys} (e.g. items). */
    static Iterable<JsonNode> items(JsonNode answer, String... keys) {
        if (answer == null || answer.isNull() || answer.isMissingNode()) {
            return NODES.arrayNode();
        }
        if (answer.isArray()) {
            return answer;
        }
        for (String k : keys) {
            if (answer.path(k).isArray()) {
                return answer.get(k);
            }
        }
        return NODES.arrayNode();
    }

    /** The first of {@code names} that is a non-null scalar, as text; null when none is. */
    static String text(JsonNode n, String... names) {
        for (String name : names) {
            JsonNode v = path(n, name);
            if (v.isValueNode() && !v.isNull()) {
                return v.asText();
            }
        }
        return null;
    }

    /** {@code a.b} walks into objects. */
    static JsonNode path(JsonNode n, String dotted) {
        JsonNode cur = n;
        for (String part : dotted.split("\\.")) {
            cur = cur == null ? null : cur.path(part);
        }
        return cur == null ? NODES.missingNode() : cur;
    }

    /** A time as RFC 3339 text: from RFC 3339 (any offset), epoch seconds or epoch milliseconds; null if neither. */
    static String time(JsonNode n, String... names) {
        for (String name : names) {
            String t = time(path(n, name));
            if (t != null) {
                return t;
            }
        }
        return null;
    }

    static String time(JsonNode v) {
        if (v == null || v.isNull() || v.isMissingNode()) {
            return null;
        }
        if (v.isNumber()) {
            double x = v.asDouble();
            long ms = x < 1e11 ? Math.round(x * 1000) : Math.round(x);
            return Instant.ofEpochMilli(ms).toString();
        }
        if (v.isTextual()) {
            String s = v.asText().trim();
            try {
                return Instant.parse(s).toString();
            } catch (DateTimeParseException e) {
                try {
                    return OffsetDateTime.parse(s.replace(' ', 'T')).toInstant().toString();
                } catch (DateTimeParseException e2) {
                    return null;
                }
            }
        }
        return null;
    }

    /** Puts the value unless it is null. */
    static void put(ObjectNode o, String key, String value) {
        if (value != null) {
            o.put(key, value);
        }
    }

    /** Copies the first of {@code names} that is a number (or numeric text) as an integer. */
    static void putInt(ObjectNode o, String key, JsonNode n, String... names) {
        for (String name : names) {
            JsonNode v = path(n, name);
            if (v.isNumber() || v.isTextual() && v.asText().trim().matches("-?\\d+")) {
                o.put(key, v.isNumber() ? v.asInt() : Integer.parseInt(v.asText().trim()));
                return;
            }
        }
    }

    /** Copies the first of {@code names} that is a boolean. */
    static void putBool(ObjectNode o, String key, JsonNode n, String... names) {
        for (String name : names) {
            JsonNode v = path(n, name);
            if (v.isBoolean()) {
                o.put(key, v.asBoolean());
                return;
            }
        }
    }

    static ArrayNode array() {
        return NODES.arrayNode();
    }

    static ObjectNode object() {
        return NODES.objectNode();
    }
}
