package io.jobmon.contracts.problem;

import java.util.List;

/**
 * An error the API answers on purpose. Services throw the subclasses; {@link ProblemMappers} turns them into
 * problem bodies with the status each one carries. Never carries a stack trace to the client.
 */
public class ApiException extends RuntimeException {

    private final int status;
    private final String title;
    private final String problemType;
    private final List<Problem.FieldError> errors;

    public ApiException(int status, String title, String problemType, String detail, List<Problem.FieldError> errors) {
        super(detail, null, false, false);
        this.status = status;
        this.title = title;
        this.problemType = problemType;
        this.errors = errors;
    }

    public Problem toProblem() {
        String type = problemType == null ? Problem.typeFor(status) : Problem.TYPE_BASE + problemType;
        return new Problem(type, title, status, getMessage(), null, errors, null);
    }

    public int status() {
        return status;
    }

    /** 400: the request is malformed; {@code errors} names every invalid field. */
    public static ApiException badRequest(String detail, List<Problem.FieldError> errors) {
        return new ApiException(400, "Bad Request", "invalid-request", detail, errors);
    }

    public static ApiException badRequest(String field, String message) {
        return badRequest(field + ": " + message, List.of(new Problem.FieldError(field, message)));
    }

    /** 404: the thing does not exist, or the caller may not see it (ids never leak). */
    public static ApiException notFound(String detail) {
        return new ApiException(404, "Not Found", "not-found", detail, null);
    }

    /** 403: the caller sees the job but may not do this to it. */
    public static ApiException forbidden(String detail) {
        return new ApiException(403, "Forbidden", "forbidden", detail, null);
    }

    /** 409: the request conflicts with the current state (e.g. deleting a running job). */
    public static ApiException conflict(String detail) {
        return new ApiException(409, "Conflict", "conflict", detail, null);
    }

    /** 422: well-formed, but cannot be processed as asked (e.g. an Idempotency-Key reused with another body). */
    public static ApiException unprocessable(String detail) {
        return new ApiException(422, "Unprocessable Content", "unprocessable", detail, null);
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
