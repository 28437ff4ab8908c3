package io.jobmon.contracts.problem;

import io.jobmon.contracts.i18n.Text;
import java.util.List;

/**
 * An error the API answers on purpose. Services throw it through its factories; {@link io.jobmon.contracts.http.ProblemMappers} turns it
 * into a problem body with the status it carries, in the reader's language when its detail and field messages are
 * catalogue keys ({@link Text}, {@link Problem.FieldError#of}). Never carries a stack trace to the client.
 */
public class ApiException extends RuntimeException {

    private final int status;
    private final String title;
    private final String problemType;
    private final List<Problem.FieldError> errors;
    private final Text detailText;

    public ApiException(int status, String title, String problemType, String detail, List<Problem.FieldError> errors) {
        this(status, title, problemType, detail, errors, null);
    }

    private ApiException(int status, String title, String problemType, String detail, List<Problem.FieldError> errors,
            Text detailText) {
        super(detail != null ? detail : detailText != null ? detailText.code() : null, null, false, false);
        this.status = status;
        this.title = title;
        this.problemType = problemType;
        this.errors = errors;
        this.detailText = detailText;
    }

    /** An error of {@code status} whose detail is rendered from the catalogue in the reader's language. */
    public static ApiException of(int status, String problemType, Text detail) {
        return new ApiException(status, null, problemType, null, null, detail);
    }

    public Problem toProblem() {
        String type = problemType == null ? Problem.typeFor(status) : Problem.TYPE_BASE + problemType;
        return new Problem(type, title, status, detailText == null ? getMessage() : null, null, errors, null,
                detailText);
    }

    public int status() {
        return status;
    }

    /** The detail's catalogue key and arguments, when it has one. */
    public Text detailText() {
        return detailText;
    }

    public List<Problem.FieldError> errors() {
        return errors == null ? List.of() : errors;
    }

    /** 400: the request is malformed; {@code errors} names every invalid field. */
    public static ApiException badRequest(String detail, List<Problem.FieldError> errors) {
        return new ApiException(400, "Bad Request", "invalid-request", detail, errors);
    }

    /** 400 naming every invalid field; the detail lists them in the reader's language. */
    public static ApiException badRequest(List<Problem.FieldError> errors) {
        return new ApiException(400, "Bad Request", "invalid-request", null, List.copyOf(errors), null);
    }

    public static ApiException badRequest(String field, String message) {
        return badRequest(field + ": " + message, List.of(new Problem.FieldError(field, message)));
    }

    /** 400 for one field, its message the catalogue's {@code code} with {@code args}. */
    public static ApiException invalid(String field, String code, Object... args) {
        return badRequest(List.of(Problem.FieldError.of(field, code, args)));
    }

    /** 404: the thing does not exist, or the caller may not see it (ids never leak). */
    public static ApiException notFound(String detail) {
        return new ApiException(404, "Not Found", "not-found", detail, null);
    }

    /** 404 with the catalogue's uniform text, e.g. {@code problem.not-found.job} and the id. */
    public static ApiException notFound(Text detail) {
        return of(404, "not-found", detail);
    }

    /** 403: the caller sees the job but may not do this to it. */
    public static ApiException forbidden(String detail) {
        return new ApiException(403, "Forbidden", "forbidden", detail, null);
    }

    public static ApiException forbidden(Text detail) {
        return of(403, "forbidden", detail);
    }

    /** 409: the request conflicts with the current state (e.g. deleting a running job). */
    public static ApiException conflict(String detail) {
        return new ApiException(409, "Conflict", "conflict", detail, null);
    }

    public static ApiException conflict(Text detail) {
        return of(409, "conflict", detail);
    }

    /** 422: well-formed, but cannot be processed as asked (e.g. an Idempotency-Key reused with another body). */
    public static ApiException unprocessable(String detail) {
        return new ApiException(422, "Unprocessable Content", "unprocessable", detail, null);
    }

    /** 422 naming the fields whose values cannot be used (e.g. a user jobmon does not know). */
    public static ApiException unprocessable(Text detail, List<Problem.FieldError> errors) {
        return new ApiException(422, null, "unprocessable", null, List.copyOf(errors), detail);
    }

    public static ApiException unprocessable(Text detail) {
        return of(422, "unprocessable", detail);
    }

    /** 410: the data asked for is older than the retention window. */
    public static ApiException gone(String detail) {
        return new ApiException(410, "Gone", "retention-expired", detail, null);
    }

    /** 413: the body is larger than the endpoint accepts. */
    public static ApiException tooLarge(String detail) {
        return new ApiException(413, "Payload Too Large", "payload-too-large", detail, null);
    }

    /** 503: a dependency this request needs is down; the answer carries {@code Retry-After}. */
    public static ApiException unavailable(String detail) {
        return new ApiException(503, "Service Unavailable", "dependency-unavailable", detail, null);
    }

    /** 429: too many requests of this caller; the answer carries {@code Retry-After}. */
    public static ApiException tooManyRequests(String detail) {
        return new ApiException(429, "Too Many Requests", "too-many-requests", detail, null);
    }
}
