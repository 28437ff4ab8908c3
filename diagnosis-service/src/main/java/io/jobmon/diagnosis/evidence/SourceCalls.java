package io.jobmon.diagnosis.evidence;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.ws.rs.WebApplicationException;
import java.util.function.Supplier;

/** One call to a source: a 4xx becomes {@link SourceRefused}; anything else (5xx, I/O) stays a failure to retry. */
final class SourceCalls {

    private SourceCalls() {
    }

    static JsonNode call(String what, Supplier<JsonNode> call) {
        try {
            return call.get();
        } catch (WebApplicationException e) {
            int status = e.getResponse() == null ? 0 : e.getResponse().getStatus();
            if (status >= 400 && status < 500) {
                throw new SourceRefused(status, what + " answered " + status);
            }
            throw new SourceFailed(what + " answered " + status);
        }
    }

    /** A source failed in a way worth retrying. */
    static final class SourceFailed extends RuntimeException {
        SourceFailed(String message) {
            super(message, null, false, false);
        }
    }
}
