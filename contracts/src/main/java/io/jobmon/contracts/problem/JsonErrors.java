package io.jobmon.contracts.problem;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import io.jobmon.contracts.i18n.Text;
import java.time.temporal.Temporal;
import java.util.Arrays;
import java.util.Collection;

import java.util.Map;
import java.util.stream.Collectors;

/**
 * Turns a Jackson failure on a request body into a 400 a person can act on: which field, and what was expected in
 * JSON terms (a string, a whole number, one of the allowed values...), in the reader's language. Never a Java class
 * name or a stack detail.
 */
public final class JsonErrors {

    /** The message of a string that carries a NUL character ({@code \u0000}): PostgreSQL cannot store it. */
    public static final String NUL_MESSAGE = "a NUL character (\\u0000) is not allowed";

    private JsonErrors() {
    }

    public static ApiException badRequest(JsonProcessingException e) {
        if (e instanceof JsonParseException p) {
            var loc = p.getLocation();
            return ApiException.of(400, "invalid-request", loc == null ? Text.of("json.malformed")
                    : Text.of("json.malformed-at", loc.getLineNr(), loc.getColumnNr()));
        }
        String field = e instanceof JsonMappingException m ? path(m) : "";
        if (isNul(e)) {
            return ApiException.invalid(field.isEmpty() ? "$" : field, "field.nul");
        }
        String expected = e instanceof UnrecognizedPropertyException ? null : expectationKey(e);
        if (field.isEmpty()) {
            return ApiException.of(400, "invalid-request", expected == null ? Text.of("json.body.value")
                    : Text.of("json.body." + expected, enumValues(e)));
        }
        if (e instanceof UnrecognizedPropertyException) {
            return ApiException.invalid(field, "json.unknown-field");
        }
        return ApiException.invalid(field, "json.expected." + expected, enumValues(e));
    }

    /**
     * What is wrong, in JSON terms, for a log line or a dead-letter reason: {@code status: expected one of ...}.
     */
    public static String describe(JsonProcessingException e) {
        if (e instanceof JsonParseException) {
            return "not valid JSON: " + e.getOriginalMessage();
        }
        String field = e instanceof JsonMappingException m ? path(m) : "";
        String what = e instanceof UnrecognizedPropertyException ? "unknown field"
                : e instanceof InvalidFormatException f ? "'" + f.getValue() + "' is not " + expectation(f.getTargetType())
                : e instanceof MismatchedInputException m ? "expected " + expectation(m.getTargetType()) : "invalid value";
        return field.isEmpty() ? what : field + ": " + what;
    }

    /** The JSON path of the field, e.g. {@code resources.gpusPerReplica} or {@code tags[2]}. */
    public static String path(JsonMappingException e) {
        return e.getPath().stream()
                .map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
                .collect(Collectors.joining(".")).replace(".[", "[");
    }

    private static boolean isNul(JsonProcessingException e) {
        return e instanceof InvalidFormatException f && NUL_MESSAGE.equals(f.getOriginalMessage());
    }

    /** The catalogue suffix of what the field expected: {@code string}, {@code integer}, {@code enum}... */
    static String expectationKey(JsonProcessingException e) {
        Class<?> type = e instanceof MismatchedInputException m ? m.getTargetType() : null;
        if (type == null) {
            return "value";
        }
        if (type.isEnum()) {
            return "enum";
        }
        if (type == String.class || type == Character.class || type == char.class) {
            return "string";
        }
        if (type == Integer.class || type == int.class || type == Long.class || type == long.class
                || type == Short.class || type == short.class) {
            return "integer";
        }
        if (Number.class.isAssignableFrom(type) || type == double.class || type == float.class) {
            return "number";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "boolean";
        }
        if (Temporal.class.isAssignableFrom(type)) {
            return "time";
        }
        if (type.isArray() || Collection.class.isAssignableFrom(type)) {
            return "array";
        }
        if (Map.class.isAssignableFrom(type) || type.isRecord() || !type.getName().startsWith("java.")) {
            return "object";
        }
        return "value";
    }

    private static Object[] enumValues(JsonProcessingException e) {
        if (e instanceof MismatchedInputException m && m.getTargetType() != null && m.getTargetType().isEnum()) {
            return new Object[] {Arrays.stream(m.getTargetType().getEnumConstants()).map(Object::toString)
                    .collect(Collectors.joining(", "))};
        }
        return new Object[0];
    }

    static String expectation(Class<?> type) {
        if (type == null) {
            return "a valid value";
        }
        if (type.isEnum()) {
            return "one of " + Arrays.stream(type.getEnumConstants()).map(Object::toString)
                    .collect(Collectors.joining(", "));
        }
        if (type == String.class || type == Character.class || type == char.class) {
            return "a string";
        }
        if (type == Integer.class || type == int.class || type == Long.class || type == long.class
                || type == Short.class || type == short.class) {
            return "a whole number";
        }
        if (Number.class.isAssignableFrom(type) || type == double.class || type == float.class) {
            return "a number";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (Temporal.class.isAssignableFrom(type)) {
            return "an RFC 3339 time such as 2026-01-31T08:00:00Z";
        }
        if (type.isArray() || Collection.class.isAssignableFrom(type)) {
            return "an array";
        }
        if (Map.class.isAssignableFrom(type) || type.isRecord() || !type.getName().startsWith("java.")) {
            return "an object";
        }
        return "a valid value";
    }

}
