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

    @Timeout(value = 10, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 2, delay = 300, jitter = 100, abortOn = SourceRefused.class)
    @CircuitBreaker(requestVolumeThreshold = 10, failureRatio = 0.75, delay = 15, delayUnit = ChronoUnit.SECONDS,
            skipOn = SourceRefused.class)
    public JsonNode logs(String jobId, String from, String to, int tail, String authorization) {
        return SourceCalls.call("log-service", () -> api.logs(jobId, from, to, tail, authorization));
    }
}
