package io.jobmon.events.query;

import io.jobmon.contracts.api.Cursors;
import io.jobmon.contracts.api.Limits;
import io.jobmon.contracts.problem.ApiException;
import io.jobmon.contracts.problem.Problem;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * The query parameters of the events endpoint, checked: {@code from} (inclusive) and {@code to} (exclusive)
 * RFC 3339 times, {@code type} Normal or Warning, {@code reason}, {@code pod}, {@code limit} 1..500 (default 50)
 * and the opaque {@code cursor} of the previous page (contracts' {@link Cursors}). Every invalid one is named in one
 * 400, in the reader's language.
 */
public record EventFilter(Instant from, Instant to, String type, String reason, String pod, int limit,
        Instant afterTime, String afterUid) {

    public static EventFilter of(String from, String to, String type, String reason, String pod, String limit,
            String cursor) {
        List<Problem.FieldError> errors = new ArrayList<>();
        Instant f = time("from", from, errors);
        Instant t = time("to", to, errors);
        String normalType = null;
        if (type != null && !type.isBlank()) {
            if (type.equalsIgnoreCase("Normal") || type.equalsIgnoreCase("Warning")) {
                normalType = Character.toUpperCase(type.charAt(0)) + type.substring(1).toLowerCase();
            } else {
                errors.add(Problem.FieldError.of("type", "events.type"));
            }
        }
        int n = Limits.parse(limit, errors);
        Instant afterTime = null;
        String afterUid = null;
        try {
            List<String> parts = Cursors.decode(cursor, 2);
            if (parts != null) {
                afterTime = Instant.parse(parts.get(0));
                afterUid = parts.get(1);
            }
        } catch (RuntimeException e) {
            errors.add(Problem.FieldError.of("cursor", "field.cursor"));
        }
        if (f != null && t != null && !f.isBefore(t)) {
            errors.add(Problem.FieldError.of("to", "events.window"));
        }
        if (!errors.isEmpty()) {
            throw ApiException.badRequest(errors);
        }
        return new EventFilter(f, t, normalType, blankToNull(reason), blankToNull(pod), n, afterTime, afterUid);
    }

    public static String cursor(Instant time, String uid) {
        return Cursors.encode(time.toString(), uid);
    }

    private static Instant time(String field, String value, List<Problem.FieldError> errors) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            return Instant.parse(value);
        } catch (DateTimeParseException e) {
            errors.add(Problem.FieldError.of(field, "field.time"));
            return null;
        }
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
