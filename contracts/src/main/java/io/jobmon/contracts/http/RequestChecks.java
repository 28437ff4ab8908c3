package io.jobmon.contracts.http;

import io.jobmon.contracts.i18n.Text;
import io.jobmon.contracts.problem.ApiException;
import io.jobmon.contracts.problem.Problem;
import io.vertx.core.http.HttpServerRequest;
import java.util.Locale;
import java.util.Map;

/**
 * What every service refuses before routing, each with a problem body:
 * <ul>
 * <li>a declared body over {@code jobmon.http.max-body-size} — 413;</li>
 * <li>a URI over {@value #MAX_URI_LENGTH} characters — 414;</li>
 * <li>headers of more than {@value #MAX_HEADER_BYTES} bytes in all — 431;</li>
 * <li>dot-segments ({@code /../}, {@code /./}, also percent-encoded) and encoded slashes or backslashes in the
 * path — 400: a path means what it says, so no route can be reached through another;</li>
 * <li>a NUL byte anywhere in the URI ({@code %00}; PostgreSQL cannot store it) or a control character in a
 * header — 400 (a NUL inside a JSON string is refused by {@link ApiJson});</li>
 * <li>a JSON or text body whose declared charset is not UTF-8 — 415: JSON is UTF-8 (RFC 8259), and a body read as something
 * else would be stored garbled (a request without a body may name any charset).</li>
 * </ul>
 */
public final class RequestChecks {

    public static final int MAX_URI_LENGTH = 8192;
    /**
     * Request headers in all (names, values, ": " and CRLF), as Quarkus' own default limit (20K); the HTTP server's
     * limits ({@code quarkus.http.limits.max-initial-line-length}, {@code max-header-size}) stay above these two so
     * that a request over them reaches this check and gets a problem body, not the server's bare answer.
     */
    public static final int MAX_HEADER_BYTES = 20 * 1024;

    private RequestChecks() {
    }

    /** The problem to answer instead of serving the request, or null when it may proceed. */
    public static Problem refusal(HttpServerRequest request, long maxBodyBytes) {
        String uri = request.uri();
        if (uri != null && uri.length() > MAX_URI_LENGTH) {
            return Problem.of(414, Text.of("problem.uri-too-long", MAX_URI_LENGTH));
        }
        if (headerBytes(request) > MAX_HEADER_BYTES) {
            request.response().putHeader("Connection", "close");
            return Problem.of(431, Text.of("problem.headers-too-large", MAX_HEADER_BYTES));
        }
        if (declaredLength(request) > maxBodyBytes) {
            request.response().putHeader("Connection", "close");
            return tooLarge(maxBodyBytes);
        }
        String path = request.path();
        if (path != null && hasDotSegmentOrEncodedSeparator(path)) {
            return invalid("path", "field.dot-segments");
        }
        if (uri != null && uri.toLowerCase(Locale.ROOT).contains("%00")) {
            int query = uri.indexOf('?');
            return invalid(query >= 0 && uri.toLowerCase(Locale.ROOT).indexOf("%00") > query ? "query" : "path",
                    "field.nul");
        }
        for (Map.Entry<String, String> h : request.headers()) {
            if (hasControlCharacter(h.getKey()) || hasControlCharacter(h.getValue())) {
                return invalid("header " + printable(h.getKey()), "field.control-characters");
            }
        }
        String type = request.getHeader("Content-Type");
        // Only a text body has a charset; a binary one (remote-write's protobuf) may carry a meaningless one.
        String charset = hasBody(request) && isText(type) ? charset(type) : null;
        if (charset != null && !charset.equals("utf-8") && !charset.equals("utf8")) {
            return Problem.of(415, Text.of("problem.charset", printable(charset)));
        }
        return null;
    }

    static long headerBytes(HttpServerRequest request) {
        long n = 0;
        for (Map.Entry<String, String> h : request.headers()) {
            n += h.getKey().length() + h.getValue().length() + 4;
        }
        return n;
    }

    /** The one 413 of the suite. */
    public static Problem tooLarge(long maxBodyBytes) {
        return ApiException.of(413, "payload-too-large", Text.of("problem.too-large", maxBodyBytes)).toProblem();
    }

    /** JSON or {@code text/*}: a media type whose bytes are characters. */
    static boolean isText(String contentType) {
        if (contentType == null) {
            return false;
        }
        String media = contentType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        return media.startsWith("text/") || media.endsWith("/json") || media.endsWith("+json");
    }

    /** The {@code charset} parameter of a media type, lower case and unquoted, or null when it names none. */
    static String charset(String contentType) {
        if (contentType == null) {
            return null;
        }
        for (String part : contentType.split(";")) {
            String p = part.trim();
            int eq = p.indexOf('=');
            if (eq > 0 && p.substring(0, eq).trim().equalsIgnoreCase("charset")) {
                return p.substring(eq + 1).trim().replace("\"", "").toLowerCase(Locale.ROOT);
            }
        }
        return null;
    }

    static boolean hasDotSegmentOrEncodedSeparator(String rawPath) {
        String lower = rawPath.toLowerCase(Locale.ROOT);
        if (lower.contains("%2f") || lower.contains("%5c") || lower.indexOf('\\') >= 0) {
            return true;
        }
        for (String segment : lower.split("/", -1)) {
            String s = segment.replace("%2e", ".");
            if (s.equals(".") || s.equals("..")) {
                return true;
            }
        }
        return false;
    }

    static boolean hasControlCharacter(String s) {
        if (s == null) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 && c != '\t' || c == 0x7f) {
                return true;
            }
        }
        return false;
    }

    /** A body follows: a length above zero, or a chunked one. */
    private static boolean hasBody(HttpServerRequest request) {
        String te = request.getHeader("Transfer-Encoding");
        return declaredLength(request) > 0 || te != null && te.toLowerCase(Locale.ROOT).contains("chunked");
    }

    private static long declaredLength(HttpServerRequest request) {
        String length = request.getHeader("Content-Length");
        try {
            return length == null ? -1 : Long.parseLong(length.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static String printable(String s) {
        StringBuilder b = new StringBuilder();
        for (char c : s.toCharArray()) {
            b.append(c < 0x20 || c == 0x7f ? '?' : c);
        }
        return b.length() > 64 ? b.substring(0, 64) : b.toString();
    }

    private static Problem invalid(String field, String code) {
        return ApiException.invalid(field, code).toProblem();
    }
}
