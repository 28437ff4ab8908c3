package io.jobmon.diagnosis.evidence;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jobmon.diagnosis.config.DiagnosisConfig;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import org.eclipse.microprofile.faulttolerance.exceptions.CircuitBreakerOpenException;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import org.jboss.logging.Logger;

/**
 * The paged reads of a task (pods from job-service, the window's events from event-ingest, each bounded by a count),
 * and the small rules shared by the gatherer: why a section is missing, and the job facts taken from the seed.
 */
final class SourceReads {

    private static final Logger LOG = Logger.getLogger(SourceReads.class);
    static final Map<String, String> SERVICE = Map.of("job", "job-service", "pods", "job-service",
            "events", "event-ingest-service", "logs", "log-service", "metrics", "metrics-service");
    static final int PAGE = 500;

    private final JobServiceClient jobs;
    private final EventServiceClient events;
    private final DiagnosisConfig.Evidence config;

    SourceReads(JobServiceClient jobs, EventServiceClient events, DiagnosisConfig.Evidence config) {
        this.jobs = jobs;
        this.events = events;
        this.config = config;
    }

    /** The job's pods, page by page up to {@code max-pods}. */
    ArrayNode pods(String jobId, String auth, Map<String, Object> read) {
        ArrayNode out = Json.array();
        String cursor = null;
        int pages = 0;
        do {
            JsonNode page = jobs.pods(jobId, PAGE, cursor, auth);
            pages++;
            out.addAll(SourceShapes.pods(page));
            cursor = Json.text(page, "nextCursor");
        } while (cursor != null && out.size() < config.maxPods());
        read.put("pods", Map.of("pods", out.size(), "pages", pages, "complete", cursor == null));
        return out;
    }

    /** The window's events (the job's and its nodes'), page by page up to {@code max-events}, in time order. */
    ArrayNode events(String jobId, EvidencePlan plan, String auth, Map<String, Object> read) {
        ArrayNode out = Json.array();
        String cursor = null;
        int pages = 0;
        do {
            JsonNode page = events.events(jobId, plan.windowFrom().toString(), plan.windowTo().toString(), cursor, auth);
            pages++;
            SourceShapes.addEvents(out, page);
            cursor = Json.text(page, "nextCursor");
        } while (cursor != null && out.size() < config.maxEvents());
        read.put("events", Map.of("events", out.size(), "pages", pages, "complete", cursor == null));
        return out;
    }

    /** Job facts the source lacked (e.g. retry counters) are taken from the seed, never overriding the source. */
    static void addMissingJobFacts(ObjectNode bundle, ObjectNode seed, String jobId) {
        ObjectNode job = bundle.path("job").isObject() ? (ObjectNode) bundle.get("job") : bundle.putObject("job");
        if (seed != null && seed.path("job").isObject()) {
            seed.get("job").fields().forEachRemaining(e -> {
                if (!job.hasNonNull(e.getKey())) {
                    job.set(e.getKey(), e.getValue());
                }
            });
        }
        if (!job.hasNonNull("id")) {
            job.put("id", jobId);
        }
        for (String list : List.of("pods", "events", "logs", "metrics")) {
            if (!(bundle.get(list) instanceof ArrayNode)) {
                bundle.remove(list);
            }
        }
    }

    /** Why a section is missing, for the API: no exception names or messages of other libraries. */
    static String reason(String section, Throwable failure) {
        Throwable e = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        String service = SERVICE.get(section);
        if (e instanceof SourceRefused r) {
            return service + " refused: " + r.status();
        }
        if (e instanceof TimeoutException) {
            return service + " did not answer in time";
        }
        if (e instanceof CircuitBreakerOpenException) {
            return service + " is failing (circuit open)";
        }
        LOG.debugf("%s failed: %s", service, e);
        return service + " unreachable";
    }
}
