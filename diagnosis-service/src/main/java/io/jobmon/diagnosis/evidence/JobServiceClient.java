package io.jobmon.diagnosis.evidence;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.temporal.ChronoUnit;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/** job-service with a timeout, two retries and a circuit breaker per call (tunable by MicroProfile FT config). */
@ApplicationScoped
public class JobServiceClient {

    private final JobServiceApi api;

    public JobServiceClient(@RestClient JobServiceApi api) {
        this.api = api;
    }

    @Timeout(value = 5, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 2, delay = 300, jitter = 100, abortOn = SourceRefused.class)
    @CircuitBreaker(requestVolumeThreshold = 10, failureRatio = 0.75, delay = 15, delayUnit = ChronoUnit.SECONDS,
            skipOn = SourceRefused.class)
    public JsonNode job(String jobId, String authorization) {
        return SourceCalls.call("job-service", () -> api.job(jobId, authorization));
    }

    /** One page of the job's pods (by name); {@code cursor} null for the first. */
    @Timeout(value = 5, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 2, delay = 300, jitter = 100, abortOn = SourceRefused.class)
    @CircuitBreaker(requestVolumeThreshold = 10, failureRatio = 0.75, delay = 15, delayUnit = ChronoUnit.SECONDS,
            skipOn = SourceRefused.class)
    public JsonNode pods(String jobId, int limit, String cursor, String authorization) {
        return SourceCalls.call("job-service", () -> api.pods(jobId, limit, cursor, authorization));
    }

    @Timeout(value = 5, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 2, delay = 300, jitter = 100, abortOn = SourceRefused.class)
    @CircuitBreaker(requestVolumeThreshold = 10, failureRatio = 0.75, delay = 15, delayUnit = ChronoUnit.SECONDS,
            skipOn = SourceRefused.class)
    public JsonNode attempts(String jobId, String authorization) {
        return SourceCalls.call("job-service", () -> api.attempts(jobId, authorization));
    }
}
