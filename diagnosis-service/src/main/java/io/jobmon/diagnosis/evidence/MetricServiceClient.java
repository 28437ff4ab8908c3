package io.jobmon.diagnosis.evidence;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/** metrics-service with a timeout, two retries and a circuit breaker (tunable by MicroProfile FT config). */
@ApplicationScoped
public class MetricServiceClient {

    private final MetricServiceApi api;

    public MetricServiceClient(@RestClient MetricServiceApi api) {
        this.api = api;
    }

    /** The series per GPU (and node) over the range, at {@code step} (null: the finest the service keeps). */
    @Timeout(value = 10, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 2, delay = 300, jitter = 100, abortOn = SourceRefused.class)
    @CircuitBreaker(requestVolumeThreshold = 10, failureRatio = 0.75, delay = 15, delayUnit = ChronoUnit.SECONDS,
            skipOn = SourceRefused.class)
    public JsonNode metrics(String jobId, List<String> metrics, String from, String to, String step,
            String authorization) {
        return SourceCalls.call("metrics-service", () -> api.metrics(jobId, metrics, from, to, step, "gpu",
                authorization));
    }
}
