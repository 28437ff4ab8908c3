package io.jobmon.contracts.problem;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * The one error body of the suite: RFC 9457 {@code application/problem+json}.
 *
 * @param type a jobmon URI naming the kind of problem ({@link #typeFor}), stable for clients to switch on
 * @param errors field violations of a 400, each naming the field
 * @param requestId the {@code X-Request-Id} of the failed request, to find it in the logs
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Problem(String type, String title, int status, String detail, String instance,
        List<FieldError> errors, String requestId) {

    public static final String MEDIA_TYPE = "application/problem+json";
    public static final String TYPE_BASE = "https://jobmon.io/problems/";

    /** One invalid field of a request: its JSON path and what is wrong with it. */
    public record FieldError(String field, String message) {
    }

    public static Problem of(int status, String title, String detail) {
        return new Problem(typeFor(status), title, status, detail, null, null, null);
    }

    /** The problem type of a status when nothing more specific is known: every jobmon error has a jobmon URI. */
    public static String typeFor(int status) {
        String slug = switch (status) {
            case 400 -> "invalid-request";
            case 401 -> "unauthorized";
            case 403 -> "forbidden";
            case 404 -> "not-found";
            case 405 -> "method-not-allowed";
            case 406 -> "not-acceptable";
            case 409 -> "conflict";
            case 410 -> "retention-expired";
            case 413 -> "payload-too-large";
            case 414 -> "uri-too-long";
            case 415 -> "unsupported-media-type";
            case 422 -> "unprocessable";
            case 429 -> "too-many-requests";
            case 431 -> "headers-too-large";
            case 503 -> "dependency-unavailable";
            case 504 -> "upstream-timeout";
            default -> status >= 500 ? "internal-error" : "http-" + status;
        };
        return TYPE_BASE + slug;
    }

    public Problem withInstance(String instance, String requestId) {
        return new Problem(type, title, status, detail, instance, errors, requestId);
    }
}
