package io.jobmon.diagnosis.engine;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;

/** Typed readers of optional JSON fields; a value of the wrong type throws naming its JSON path. */
final class JsonFields {

    private JsonFields() {
    }

    static JsonNode requireObject(JsonNode n, String path) {
        if (n == null || !n.isObject()) {
            throw new BundleValidationException(path, "must be an object");
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
            throw new BundleValidationException(path, "must be a string");
        }
        return n.asText();
    }

    static String scalarText(JsonNode parent, String key, String path) {
        JsonNode n = parent.get(key);
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isTextual() && !n.isNumber()) {
            throw new BundleValidationException(path, "must be a string or a number");
        }
        return n.asText();
    }

    static Instant time(JsonNode parent, String key, String path) {
        String s = text(parent, key, path);
        if (s == null || s.isBlank()) {
            return null;
        }
        Instant t = BundleParser.parseInstant(s);
        if (t == null) {
            throw new BundleValidationException(path, "must be an RFC 3339 time, got '" + s + "'");
        }
        return t;
    }

    static Integer integer(JsonNode parent, String key, String path) {
        JsonNode n = parent.get(key);
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isIntegralNumber() || !n.canConvertToInt()) {
            throw new BundleValidationException(path, "must be an integer");
        }
        return n.asInt();
    }

    static Boolean bool(JsonNode parent, String key, String path) {
        JsonNode n = parent.get(key);
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isBoolean()) {
            throw new BundleValidationException(path, "must be a boolean");
        }
        return n.asBoolean();
    }
}
