package io.jobmon.events.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/** Kubernetes times: {@code Time} (RFC 3339, seconds) and {@code MicroTime} (RFC 3339 with fractions), UTC. */
public final class K8sTime {

    private K8sTime() {
    }

    /** The time at {@code node}, or null when it is absent, null or not a time. */
    public static Instant parse(JsonNode node) {
        if (node == null || !node.isTextual() || node.asText().isEmpty()) {
            return null;
        }
        return parse(node.asText());
    }

    /** An RFC 3339 time in UTC, or null when it is not one. */
    public static Instant parse(String text) {
        Instant fast = utc(text);
        if (fast != null) {
            return fast;
        }
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    private static final int[] SCALE = {0, 100_000_000, 10_000_000, 1_000_000, 100_000, 10_000, 1_000, 100, 10, 1};

    /**
     * The layouts the API server writes, {@code 2025-03-01T08:00:00Z} and {@code 2025-03-01T08:00:00.123456Z},
     * read without a formatter (a pod carries a dozen times, and every record of every cluster passes here);
     * null for anything else, which {@link Instant#parse} then tries.
     */
    static Instant utc(String s) {
        int n = s.length();
        if (n < 20 || n > 30 || s.charAt(4) != '-' || s.charAt(7) != '-' || s.charAt(10) != 'T'
                || s.charAt(13) != ':' || s.charAt(16) != ':' || s.charAt(n - 1) != 'Z') {
            return null;
        }
        int year = digits(s, 0, 4);
        int month = digits(s, 5, 2);
        int day = digits(s, 8, 2);
        int hour = digits(s, 11, 2);
        int minute = digits(s, 14, 2);
        int second = digits(s, 17, 2);
        int nanos = 0;
        if (n > 20) {
            int fraction = n - 21;
            if (s.charAt(19) != '.' || fraction < 1 || fraction > 9) {
                return null;
            }
            int f = digits(s, 20, fraction);
            if (f < 0) {
                return null;
            }
            nanos = f * SCALE[fraction];
        }
        if (year < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59
                || second < 0 || second > 59 || day > java.time.YearMonth.of(year, month).lengthOfMonth()) {
            return null;
        }
        long epochDay = java.time.LocalDate.of(year, month, day).toEpochDay();
        return Instant.ofEpochSecond(epochDay * 86_400 + hour * 3_600L + minute * 60L + second, nanos);
    }

    /** The number written by {@code length} ASCII digits at {@code from}, or -1. */
    private static int digits(String s, int from, int length) {
        int v = 0;
        for (int i = from; i < from + length; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    /** The first non-null of the given times. */
    public static Instant first(Instant... times) {
        for (Instant t : times) {
            if (t != null) {
                return t;
            }
        }
        return null;
    }

    /** The latest of the given times, ignoring nulls. */
    public static Instant latest(Instant a, Instant b) {
        if (a == null) {
            return b;
        }
        return b == null || a.isAfter(b) ? a : b;
    }
}
