package io.jobmon.diagnosis.evidence;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.temporal.ChronoUnit;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/** log-service with a timeout, two retries and a circuit breaker (tunable by MicroProfile FT config). */
@ApplicationScoped
public class LogServiceClient {

    private final LogServiceApi api;

    public LogServiceClient(@RestClient LogServiceApi api) {
        this.api = api;
    }

    /** The last {@code n} lines of {@code type} (user, system; null: both) before {@code to}, from {@code from} on. */
    @Timeout(value = 10, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 2, delay = 300, jitter = 100, abortOn = SourceRefused.class)
    @CircuitBreaker(requestVolumeThreshold = 10, failureRatio = 0.75, delay = 15, delayUnit = ChronoUnit.SECONDS,
            skipOn = SourceRefused.class)
    public JsonNode tail(String jobId, String type, String from, String to, int n, String authorization) {
        return SourceCalls.call("log-service", () -> api.logs(jobId, type, from, to, null, null, n, null, authorization));
    }

    /**
     * The first {@code limit} lines (user and system) holding {@code keyword}, ignoring case, in the range: a search
     * log-service answers from its keyword filters without reading chunks that cannot hold it.
     */
    @Timeout(value = 10, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 1, delay = 300, jitter = 100, abortOn = SourceRefused.class)
    @CircuitBreaker(requestVolumeThreshold = 20, failureRatio = 0.75, delay = 15, delayUnit = ChronoUnit.SECONDS,
            skipOn = SourceRefused.class)
    public JsonNode search(String jobId, String keyword, String from, String to, int limit, String authorization) {
        return SourceCalls.call("log-service", () -> api.logs(jobId, null, from, to, keyword, "true", null, limit,
                authorization));
    }
}
