package io.jobmon.contracts.api;

import io.jobmon.contracts.problem.ApiException;
import io.jobmon.contracts.problem.Problem;
import java.util.List;

/** The {@code limit} of every list (api.md): default 50, 1..500; anything else is a 400 naming {@code limit}. */
public final class Limits {

    public static final int DEFAULT = 50;
    public static final int MAX = 500;

    private Limits() {
    }

    /** Parses {@code raw} strictly ({@code abc}, {@code 0}, {@code 501}, {@code 1.5} are refused). */
    public static int parse(String raw) {
        return parse(raw, DEFAULT, MAX);
    }

    public static int parse(String raw, int defaultValue, int max) {
        return parse("limit", raw, defaultValue, max);
    }

    /**
     * For parsers that report every invalid parameter at once: adds the field error to {@code errors} and returns
     * the default instead of throwing.
     */
    public static int parse(String raw, List<Problem.FieldError> errors) {
        try {
            return parse(raw);
        } catch (ApiException e) {
            errors.add(Problem.FieldError.of("limit", "field.limit", MAX));
            return DEFAULT;
        }
    }

    /** The same rule for another positive bounded integer parameter (e.g. {@code tail}). */
    public static int parse(String field, String raw, int defaultValue, int max) {
        if (raw == null || raw.isBlank()) {
            return defaultValue;
        }
        try {
            int n = Integer.parseInt(raw.trim());
            if (n >= 1 && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // falls through to the 400
        }
        throw ApiException.invalid(field, "field.limit", max);
    }
}
