package io.jobmon.contracts.http;

import io.jobmon.contracts.problem.ApiException;
import io.jobmon.contracts.problem.Problem;
import io.vertx.core.http.HttpServerRequest;
import java.util.Map;

/**
 * What every service refuses before routing, each with a problem body:
 * <ul>
 * <li>a declared body over {@code jobmon.http.max-body-size} — 413;</li>
 * <li>a URI over {@value #MAX_URI_LENGTH} characters — 414;</li>
 * <li>dot-segments ({@code /../}, {@code /./}, also percent-encoded) and encoded slashes or backslashes in the
 * path — 400: a path means what it says, so no route can be reached through another;</li>
 * <li>a NUL byte anywhere in the URI ({@code %00}; PostgreSQL cannot store it) or a control character in a
 * header — 400.</li>
 * </ul>
 */
public final class RequestChecks {

    public static final int MAX_URI_LENGTH = 8192;

    private RequestChecks() {
    }

    /** The problem to answer instead of serving the request, or null when it may proceed. */
    public static Problem refusal(HttpServerRequest request, long maxBodyBytes) {
        String uri = request.uri();
        if (uri != null && uri.length() > MAX_URI_LENGTH) {
            return Problem.of(414, "URI Too Long", "the URI is longer than " + MAX_URI_LENGTH + " characters");
        }
        if (declaredLength(request) > maxBodyBytes) {
            request.response().putHeader("Connection", "close");
            return tooLarge(maxBodyBytes);
        }
        String path = request.path();
        if (path != null && hasDotSegmentOrEncodedSeparator(path)) {
            return invalid("path", "dot-segments ('.', '..') and encoded '/' or '\\\\' are not allowed in a path");
        }
        if (uri != null && containsIgnoreCase(uri, "%00")) {
            return invalid(uri.indexOf('?') >= 0 && uri.toLowerCase().indexOf("%00") > uri.indexOf('?') ? "query"
                    : "path", "a NUL byte (%00) is not allowed");
        }
        for (Map.Entry<String, String> h : request.headers()) {
            if (hasControlCharacter(h.getKey()) || hasControlCharacter(h.getValue())) {
                return invalid("header " + printable(h.getKey()), "control characters are not allowed in headers");
            }
        }
        return null;
    }

    /** The one 413 of the suite. */
    public static Problem tooLarge(long maxBodyBytes) {
        return ApiException.tooLarge("the request body is larger than the " + maxBodyBytes
                + " bytes this endpoint accepts").toProblem();
    }

    static boolean hasDotSegmentOrEncodedSeparator(String rawPath) {
        String lower = rawPath.toLowerCase();
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

    private static long declaredLength(HttpServerRequest request) {
        String length = request.getHeader("Content-Length");
        try {
            return length == null ? -1 : Long.parseLong(length.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static boolean containsIgnoreCase(String s, String needle) {
        return s.toLowerCase().contains(needle);
    }

    private static String printable(String s) {
        StringBuilder b = new StringBuilder();
        for (char c : s.toCharArray()) {
            b.append(c < 0x20 || c == 0x7f ? '?' : c);
        }
        return b.length() > 64 ? b.substring(0, 64) : b.toString();
    }

    private static Problem invalid(String field, String message) {
        return ApiException.badRequest(field, message).toProblem();
    }

}
