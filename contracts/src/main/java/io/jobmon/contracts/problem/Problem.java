package io.jobmon.contracts.problem;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * The one error body of the suite: RFC 9457 {@code application/problem+json}.
 *
 * @param type a URI naming the kind of problem ({@code about:blank} when the status says it all)
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
        return new Problem("about:blank", title, status, detail, null, null, null);
    }

    public Problem withInstance(String instance, String requestId) {
        return new Problem(type, title, status, detail, instance, errors, requestId);
    }
}
