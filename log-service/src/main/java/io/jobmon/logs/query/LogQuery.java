package io.jobmon.logs.query;

import io.jobmon.contracts.api.Limits;
import io.jobmon.contracts.problem.ApiException;
import io.jobmon.contracts.problem.Problem;
import io.jobmon.logs.config.LogsConfig;
import io.jobmon.logs.intake.Times;
import java.util.ArrayList;
import java.util.List;

/**
 * The query parameters of the log endpoints, checked (a 400 names every bad one): {@code type} user|system (absent:
 * both), {@code pod}, {@code container}, {@code from} (inclusive) / {@code to} (exclusive) RFC 3339, {@code q} and
 * {@code ignoreCase}, {@code regex}, {@code tail}, {@code limit}, {@code cursor}, {@code direction}.
 */
public record LogQuery(boolean user, boolean system, String pod, String container, long from, long to, String q,
        boolean ignoreCase, String regex, Integer tail, int limit, Position cursor, boolean forward) {

    public static LogQuery of(String type, String pod, String container, String from, String to, String q,
            String ignoreCase, String regex, String tail, String limit, String cursor, String direction, LogsConfig config) {
        List<Problem.FieldError> errors = new ArrayList<>();
        boolean user = true;
        boolean system = true;
        if (type != null && !type.isBlank()) {
            switch (type) {
                case "user" -> system = false;
                case "system" -> user = false;
                default -> errors.add(Problem.FieldError.of("type", "field.one-of", "user, system"));
            }
        }
        long f = time("from", from, Long.MIN_VALUE, errors);
        long t = time("to", to, Long.MAX_VALUE, errors);
        if (f != Long.MIN_VALUE && t != Long.MAX_VALUE && f >= t) {
            errors.add(Problem.FieldError.of("to", "field.after", "from"));
        }
        boolean ic = false;
        if (ignoreCase != null && !ignoreCase.isBlank()) {
            if (!ignoreCase.equals("true") && !ignoreCase.equals("false")) {
                errors.add(Problem.FieldError.of("ignoreCase", "field.one-of", "true, false"));
            }
            ic = ignoreCase.equals("true");
        }
        boolean forward = true;
        if (direction != null && !direction.isBlank()) {
            if (!direction.equals("forward") && !direction.equals("backward")) {
                errors.add(Problem.FieldError.of("direction", "field.one-of", "forward, backward"));
            }
            forward = !direction.equals("backward");
        }
        Integer n = null;
        int lim = Limits.DEFAULT;
        Position c = null;
        try {
            n = tail == null || tail.isBlank() ? null : Limits.parse("tail", tail, 100, config.query().maxTail());
        } catch (ApiException e) {
            errors.add(Problem.FieldError.of("tail", "field.limit", config.query().maxTail()));
        }
        try {
            lim = Limits.parse(limit);
        } catch (ApiException e) {
            errors.add(Problem.FieldError.of("limit", "field.limit", Limits.MAX));
        }
        try {
            c = Position.parse(cursor);
        } catch (ApiException e) {
            errors.add(Problem.FieldError.of("cursor", "logs.cursor"));
        }
        if (n != null && c != null) {
            errors.add(Problem.FieldError.of("tail", "logs.tail-and-cursor"));
        }
        if (!errors.isEmpty()) {
            throw ApiException.badRequest(errors);
        }
        return new LogQuery(user, system, blank(pod), blank(container), f, t, q == null || q.isEmpty() ? null : q, ic,
                blank(regex), n, lim, c, forward);
    }

    private static long time(String field, String value, long absent, List<Problem.FieldError> errors) {
        if (value == null || value.isBlank()) {
            return absent;
        }
        long t = Times.parse(value);
        if (t == Long.MIN_VALUE || !value.contains("T")) {
            errors.add(Problem.FieldError.of(field, "field.time"));
        }
        return t;
    }

    private static String blank(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
