package io.jobmon.contracts.problem;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import java.time.temporal.Temporal;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Turns a Jackson failure on a request body into a 400 a person can act on: which field, and what was expected in
 * JSON terms (a string, a whole number, one of the allowed values...). Never a Java class name or a stack detail.
 */
public final class JsonErrors {

    private JsonErrors() {
    }

    public static ApiException badRequest(JsonProcessingException e) {
        if (e instanceof JsonParseException p) {
            var loc = p.getLocation();
            String where = loc == null ? "" : " at line " + loc.getLineNr() + ", column " + loc.getColumnNr();
            return ApiException.badRequest("the body is not valid JSON" + where, List.of());
        }
        String field = e instanceof JsonMappingException m ? path(m) : "";
        String expected = e instanceof UnrecognizedPropertyException ? "an unknown field: remove it"
                : e instanceof MismatchedInputException m ? expectation(m.getTargetType()) : "an invalid value";
        if (field.isEmpty()) {
            return ApiException.badRequest("the body must be " + expected.replaceFirst("^an? valid ", "a "),
                    List.of());
        }
        String message = e instanceof UnrecognizedPropertyException ? "unknown field" : "expected " + expected;
        return ApiException.badRequest(field, message);
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
