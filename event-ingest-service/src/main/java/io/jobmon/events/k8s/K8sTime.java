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
        try {
            return Instant.parse(node.asText());
        } catch (DateTimeParseException e) {
            return null;
        }
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
