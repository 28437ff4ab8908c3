package io.jobmon.diagnosis.evidence;

/**
 * A source answered, but no: 4xx (the job is unknown to it, or the token may not read it). Not retried and not
 * counted against the source's circuit breaker: asking again would get the same answer.
 */
public class SourceRefused extends RuntimeException {

    private final int status;

    public SourceRefused(int status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    public int status() {
        return status;
    }
}
