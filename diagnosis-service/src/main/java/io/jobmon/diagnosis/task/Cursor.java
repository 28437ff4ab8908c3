package io.jobmon.diagnosis.task;

import io.jobmon.contracts.problem.ApiException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;

/** The opaque position in a job's history: the (created at, id) of the last diagnosis of the previous page. */
public record Cursor(Instant createdAt, String id) {

    public String encode() {
        String raw = createdAt.getEpochSecond() + "." + createdAt.getNano() + "|" + id;
        return Base64.getUrlEncoder().withoutPadding().encodeToString(raw.getBytes(StandardCharsets.UTF_8));
    }

    /** @return null for a null cursor; @throws ApiException 400 naming {@code cursor} when it is not one of ours */
    public static Cursor decode(String cursor) {
        if (cursor == null || cursor.isBlank()) {
            return null;
        }
        try {
            String raw = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
            int bar = raw.indexOf('|');
            String[] time = raw.substring(0, bar).split("\\.");
            return new Cursor(Instant.ofEpochSecond(Long.parseLong(time[0]), Long.parseLong(time[1])),
                    raw.substring(bar + 1));
        } catch (RuntimeException e) {
            throw ApiException.badRequest("cursor", "not a cursor of this list");
        }
    }
}
