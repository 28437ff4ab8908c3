package io.jobmon.diagnosis.evidence;

import com.fasterxml.jackson.databind.JsonNode;
import io.jobmon.contracts.api.Limits;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.temporal.ChronoUnit;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/** event-ingest-service with a timeout, two retries and a circuit breaker (tunable by MicroProfile FT config). */
@ApplicationScoped
public class EventServiceClient {

    /**
     * Events of one job in half an hour: a few hundred at most, even for a crash-looping job (repeats are counted, not
     * listed). event-ingest's largest page ({@link Limits#MAX}); a larger limit is a 400 there.
     */
    private static final int MAX_EVENTS = Limits.MAX;

    private final EventServiceApi api;

    public EventServiceClient(@RestClient EventServiceApi api) {
        this.api = api;
    }

    @Timeout(value = 5, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 2, delay = 300, jitter = 100, abortOn = SourceRefused.class)
    @CircuitBreaker(requestVolumeThreshold = 10, failureRatio = 0.75, delay = 15, delayUnit = ChronoUnit.SECONDS,
            skipOn = SourceRefused.class)
    public JsonNode events(String jobId, String from, String to, String authorization) {
        return SourceCalls.call("event-ingest-service", () -> api.events(jobId, from, to, MAX_EVENTS, authorization));
    }
}
