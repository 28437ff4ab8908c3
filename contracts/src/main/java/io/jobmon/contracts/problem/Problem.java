package io.jobmon.contracts.problem;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.jobmon.contracts.i18n.I18n;
import io.jobmon.contracts.i18n.Text;
import io.jobmon.contracts.i18n.Texts;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The one error body of the suite: RFC 9457 {@code application/problem+json}.
 *
 * @param type a jobmon URI naming the kind of problem ({@link #typeFor}), stable for clients to switch on; never
 *        translated
 * @param title the status in the reader's language
 * @param detail what is wrong, in the reader's language
 * @param errors field violations of a 400, each naming the field
 * @param requestId the {@code X-Request-Id} of the failed request, to find it in the logs
 * @param detailText the catalogue key of {@code detail}, rendered in the reader's language when the problem is
 *        written (not part of the body)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Problem(String type, String title, int status, String detail, String instance,
        List<FieldError> errors, String requestId, @JsonIgnore Text detailText) {

    public static final String MEDIA_TYPE = "application/problem+json";
    public static final String TYPE_BASE = "https://jobmon.io/problems/";

    /** A problem whose texts are given as they are (not translated). */
    public Problem(String type, String title, int status, String detail, String instance, List<FieldError> errors,
            String requestId) {
        this(type, title, status, detail, instance, errors, requestId, null);
    }

    /**
     * This problem in {@code locale}: its title by status, its detail and field messages from their catalogue keys
     * (texts given literally stay as they are). A 400 without a detail says which fields are wrong.
     */
    public Problem localize(I18n i18n, Locale locale) {
        Texts t = i18n.texts(locale);
        String titleKey = "problem.title." + status;
        String localTitle = i18n.catalogue().has(titleKey) ? t.text(titleKey) : title;
        List<FieldError> localErrors = null;
        if (errors != null) {
            localErrors = new ArrayList<>(errors.size());
            for (FieldError e : errors) {
                localErrors.add(e.code() != null && e.message() == null
                        ? new FieldError(e.field(), t.text(e.code(), e.args()), e.code(), null) : e);
            }
        }
        String localDetail = detailText != null ? t.text(detailText) : detail;
        if (localDetail == null && localErrors != null && !localErrors.isEmpty()) {
            localDetail = localErrors.size() == 1 ? localErrors.get(0).field() + ": " + localErrors.get(0).message()
                    : t.text("problem.invalid-fields", String.join(", ", localErrors.stream()
                            .map(FieldError::field).distinct().toList()));
        }
        return new Problem(type, localTitle, status, localDetail, instance, localErrors, requestId, null);
    }

    /**
     * One invalid field of a request: its JSON path (or parameter name) and what is wrong with it.
     *
     * @param code the catalogue key of {@code message}: a stable name of the rule, for clients to switch on
     * @param args the key's arguments (not part of the body)
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record FieldError(String field, String message, String code, @JsonIgnore List<Object> args) {

        /** A field error whose message is given as it is. */
        public FieldError(String field, String message) {
            this(field, message, null, null);
        }

        /** A field error rendered from the catalogue in the reader's language. */
        public static FieldError of(String field, String code, Object... args) {
            return new FieldError(field, null, code, Text.of(code, args).args());
        }

        @Override
        public List<Object> args() {
            return args == null ? List.of() : args;
        }
    }

    public static Problem of(int status, String title, String detail) {
        return new Problem(typeFor(status), title, status, detail, null, null, null, null);
    }

    /** A problem whose detail is rendered from the catalogue; the title comes from the status. */
    public static Problem of(int status, Text detail) {
        return new Problem(typeFor(status), null, status, null, null, null, null, detail);
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
        return new Problem(type, title, status, detail, instance, errors, requestId, detailText);
    }

    /** This problem with more field errors (e.g. a parser that reports every invalid parameter at once). */
    public Problem withErrors(List<FieldError> more) {
        List<FieldError> all = new ArrayList<>(errors == null ? List.of() : errors);
        all.addAll(more);
        return new Problem(type, title, status, detail, instance, all, requestId, detailText);
    }
}
