package io.jobmon.contracts.api;

import io.jobmon.contracts.problem.ApiException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/**
 * The opaque {@code cursor} of every list: the values that position a keyset page (the last row's sort value and
 * id, say), joined and base64url-encoded. Clients treat it as opaque; a cursor this service did not make for this
 * list is a 400 naming {@code cursor}, never a 500 or a wrong page.
 */
public final class Cursors {

    /** A cursor longer than this is not one of ours. */
    public static final int MAX_LENGTH = 2048;
    private static final char SEPARATOR = '\u001f';
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

    private Cursors() {
    }

    /** @param parts the position; none may contain the unit separator U+001F */
    public static String encode(String... parts) {
        StringBuilder raw = new StringBuilder();
        for (int i = 0; i < parts.length; i++) {
            if (parts[i] != null && parts[i].indexOf(SEPARATOR) >= 0) {
                throw new IllegalStateException("cursor part contains U+001F");
            }
            if (i > 0) {
                raw.append(SEPARATOR);
            }
            raw.append(parts[i] == null ? "" : parts[i]);
        }
        return ENCODER.encodeToString(raw.toString().getBytes(StandardCharsets.UTF_8));
    }

    /**
     * @return the parts of {@code cursor}, exactly {@code parts} of them; null when {@code cursor} is null or blank
     * @throws ApiException 400 naming {@code cursor} when it is not a cursor of that shape
     */
    public static List<String> decode(String cursor, int parts) {
        if (cursor == null || cursor.isBlank()) {
            return null;
        }
        try {
            if (cursor.length() > MAX_LENGTH) {
                throw new IllegalArgumentException("too long");
            }
            String raw = new String(DECODER.decode(cursor), StandardCharsets.UTF_8);
            List<String> out = List.of(raw.split(String.valueOf(SEPARATOR), -1));
            if (out.size() != parts) {
                throw new IllegalArgumentException("wrong shape");
            }
            return out;
        } catch (IllegalArgumentException e) {
            throw invalid();
        }
    }

    /** The 400 of a cursor that decodes but does not fit this list (another sort, a bad value inside). */
    public static ApiException invalid() {
        return ApiException.invalid("cursor", "field.cursor");
    }
}
