package io.jobmon.logs.intake;

/** The two byte-level checks the intake's fast path makes on a record's UTF-8 text. */
final class Utf8 {

    private Utf8() {
    }

    /**
     * Where the text of a JSON string ends when its bytes are its text: {@code b[from]} is the first byte after the
     * opening quote, and up to the closing quote there is no escape (but a final {@code \n} or {@code \r\n}, the
     * docker form's line end, which the intake drops anyway), no control character, and only well-formed UTF-8
     * (Unicode's table 3-7: no overlong forms, no surrogates, nothing above U+10FFFF).
     *
     * @param lineEnd whether a final escaped line end is allowed (and left out of the text)
     * @return the end of the text (exclusive; before a final escaped line end), or -1 when the bytes are not the text
     *         (the string is then decoded by the JSON parser, which also reports broken JSON)
     */
    static int plainJsonString(byte[] b, int from, int limit, boolean lineEnd) {
        int i = from;
        while (i < limit) {
            int c = b[i];
            if (c >= 0x20 && c != '"' && c != '\\') {
                i++;
                continue;
            }
            if (c == '"') {
                return i;
            }
            if (c == '\\' && lineEnd) {
                if (i + 2 < limit && b[i + 1] == 'n' && b[i + 2] == '"') {
                    return i;
                }
                if (i + 4 < limit && b[i + 1] == 'r' && b[i + 2] == '\\' && b[i + 3] == 'n' && b[i + 4] == '"') {
                    return i;
                }
            }
            if (c == '\\' || c >= 0) {
                return -1; // an escape, or a control character (not valid JSON)
            }
            int n = sequence(b, i, limit);
            if (n < 0) {
                return -1;
            }
            i += n;
        }
        return -1;
    }

    /** The length of the well-formed UTF-8 sequence of a non-ASCII character at {@code b[i]}, or -1. */
    static int sequence(byte[] b, int i, int limit) {
        int c = b[i] & 0xFF;
        if (c >= 0xC2 && c <= 0xDF) {
            return i + 1 < limit && continuation(b[i + 1]) ? 2 : -1;
        }
        if (c >= 0xE0 && c <= 0xEF) {
            if (i + 2 >= limit || !continuation(b[i + 2])) {
                return -1;
            }
            int c1 = b[i + 1] & 0xFF;
            boolean ok = c == 0xE0 ? c1 >= 0xA0 && c1 <= 0xBF : c == 0xED ? c1 >= 0x80 && c1 <= 0x9F : continuation(b[i + 1]);
            return ok ? 3 : -1;
        }
        if (c >= 0xF0 && c <= 0xF4) {
            if (i + 3 >= limit || !continuation(b[i + 2]) || !continuation(b[i + 3])) {
                return -1;
            }
            int c1 = b[i + 1] & 0xFF;
            boolean ok = c == 0xF0 ? c1 >= 0x90 && c1 <= 0xBF : c == 0xF4 ? c1 >= 0x80 && c1 <= 0x8F : continuation(b[i + 1]);
            return ok ? 4 : -1;
        }
        return -1;
    }

    /** The code point of the well-formed sequence of {@code n} bytes at {@code b[i]}. */
    static int codePoint(byte[] b, int i, int n) {
        return switch (n) {
            case 2 -> (b[i] & 0x1F) << 6 | b[i + 1] & 0x3F;
            case 3 -> (b[i] & 0x0F) << 12 | (b[i + 1] & 0x3F) << 6 | b[i + 2] & 0x3F;
            default -> (b[i] & 0x07) << 18 | (b[i + 1] & 0x3F) << 12 | (b[i + 2] & 0x3F) << 6 | b[i + 3] & 0x3F;
        };
    }

    private static boolean continuation(byte b) {
        return (b & 0xC0) == 0x80;
    }
}
