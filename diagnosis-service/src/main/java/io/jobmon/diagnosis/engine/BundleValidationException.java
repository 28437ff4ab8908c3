package io.jobmon.diagnosis.engine;

/**
 * Thrown by {@link EvidenceBundle#fromJson} when the bundle is malformed: a section or field of the
 * wrong JSON type, an unparseable time, a metric sample that is not a {@code [time, number]} pair.
 * {@link #field()} names the offending JSON path, e.g. {@code logs[3].time} or
 * {@code metrics[0].samples[5]}, so the REST layer can put it into a problem+json body.
 */
public class BundleValidationException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String field;
    private final String code;
    private final transient Object[] args;

    /**
     * @param code the catalogue key of the message (contracts' common {@code json.expected.*} or this service's
     *        {@code bundle.*}), for the REST layer to say it in the reader's language; {@code message} is English
     */
    public BundleValidationException(String field, String code, String message, Object... args) {
        super(field + ": " + message);
        this.field = field;
        this.code = code;
        this.args = args;
    }

    /** The catalogue key of what is wrong, e.g. {@code json.expected.string}. */
    public String code() {
        return code;
    }

    public Object[] args() {
        return args.clone();
    }

    /** The JSON path of the offending value, e.g. {@code logs[3].time}; {@code $} for the root. */
    public String field() {
        return field;
    }
}
