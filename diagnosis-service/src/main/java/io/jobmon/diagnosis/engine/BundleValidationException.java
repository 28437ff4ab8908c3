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

    public BundleValidationException(String field, String message) {
        super(field + ": " + message);
        this.field = field;
    }

    /** The JSON path of the offending value, e.g. {@code logs[3].time}; {@code $} for the root. */
    public String field() {
        return field;
    }
}
