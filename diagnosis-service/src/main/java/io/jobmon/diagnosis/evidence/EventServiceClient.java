package io.jobmon.diagnosis.evidence;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.temporal.ChronoUnit;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/** event-ingest-service with a timeout, two retries and a circuit breaker (tunable by MicroProfile FT config). */
@ApplicationScoped
public class EventServiceClient {

    /** The largest page event-ingest serves (contracts' Limits). */
    public static final int PAGE = 500;

    private final EventServiceApi api;

    public EventServiceClient(@RestClient EventServiceApi api) {
        this.api = api;
    }

    /** One page of the window's events; {@code cursor} null for the first. */
    @Timeout(value = 5, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 2, delay = 300, jitter = 100, abortOn = SourceRefused.class)
    @CircuitBreaker(requestVolumeThreshold = 10, failureRatio = 0.75, delay = 15, delayUnit = ChronoUnit.SECONDS,
            skipOn = SourceRefused.class)
    public JsonNode events(String jobId, String from, String to, String cursor, String authorization) {
        return SourceCalls.call("event-ingest-service", () -> api.events(jobId, from, to, PAGE, cursor, authorization));
    }
}
