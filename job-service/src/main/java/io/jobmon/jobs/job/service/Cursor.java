package io.jobmon.jobs.job.service;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.jobmon.contracts.problem.ApiException;
import io.jobmon.jobs.support.Json;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The opaque position of a keyset page: the sort it belongs to, the last row's sort value and id, and the
 * reference time live durations were computed at (so the next page sorts waiting jobs exactly as this one did).
 * On the wire: base64url of a small JSON object. A cursor that does not decode, or belongs to another sort, is a
 * 400: it was not made by this service for this query.
 */
public record Cursor(@JsonProperty("s") String sort, @JsonProperty("v") String value, @JsonProperty("i") String id,
        @JsonProperty("t") long refMillis) {

    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

    public String encode() {
        return ENCODER.encodeToString(Json.write(this).getBytes(StandardCharsets.UTF_8));
    }

    /** @throws ApiException 400 naming {@code cursor} when it is not a cursor for {@code expectedSort} */
    public static Cursor decode(String token, String expectedSort) {
        Cursor c;
        try {
            if (token.length() > 2048) {
                throw new IllegalArgumentException("too long");
            }
            c = Json.read(new String(DECODER.decode(token), StandardCharsets.UTF_8), Cursor.class);
        } catch (RuntimeException e) {
            throw ApiException.badRequest("cursor", "malformed cursor; use the nextCursor of the previous page");
        }
        if (c == null || c.sort() == null || c.id() == null || c.value() == null) {
            throw ApiException.badRequest("cursor", "malformed cursor; use the nextCursor of the previous page");
        }
        if (!c.sort().equals(expectedSort)) {
            throw ApiException.badRequest("cursor", "the cursor was made for sort '" + c.sort() + "', not '"
                    + expectedSort + "'");
        }
        return c;
    }
}
