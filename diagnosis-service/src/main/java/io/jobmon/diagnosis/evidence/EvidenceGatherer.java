package io.jobmon.diagnosis.evidence;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jobmon.diagnosis.config.DiagnosisConfig;
import io.jobmon.diagnosis.task.DiagnosisTask;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.eclipse.microprofile.faulttolerance.exceptions.CircuitBreakerOpenException;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import org.jboss.logging.Logger;

/**
 * Gathers a task's evidence bundle from the four services at once (each call bounded by its client's timeout and
 * retries), falling back for job, pods and events on what the service already knew (the task's seed). A source that
 * fails is named in {@link Gathered#missingSources()}: the diagnosis is made from the rest.
 */
@ApplicationScoped
public class EvidenceGatherer {

    private static final Logger LOG = Logger.getLogger(EvidenceGatherer.class);
    private static final Map<String, String> SERVICE = Map.of("job", "job-service", "pods", "job-service",
            "events", "event-ingest-service", "logs", "log-service", "metrics", "metrics-service");

    private final JobServiceClient jobs;
    private final EventServiceClient events;
    private final LogServiceClient logs;
    private final MetricServiceClient metrics;
    private final DiagnosisConfig config;
    private final ExecutorService calls = Executors.newFixedThreadPool(8, r -> {
        Thread t = new Thread(r, "diagnosis-evidence");
        t.setDaemon(true);
        return t;
    });

    public EvidenceGatherer(JobServiceClient jobs, EventServiceClient events, LogServiceClient logs,
            MetricServiceClient metrics, DiagnosisConfig config) {
        this.jobs = jobs;
        this.events = events;
        this.logs = logs;
        this.metrics = metrics;
        this.config = config;
    }

    /**
     * @param authorization {@code Bearer ...} to forward; empty when there is none (then only the seed is used)
     * @param seed a partial bundle the service knew already (job, pods, events); may be null
     */
    public Gathered gather(DiagnosisTask task, Optional<String> authorization, ObjectNode seed) {
        String from = task.windowFrom().toString();
        String to = task.windowTo().toString();
        List<String> names = task.metrics().isEmpty() ? config.evidence().defaultMetrics() : task.metrics();
        Map<String, CompletableFuture<JsonNode>> pending = new LinkedHashMap<>();
        if (authorization.isPresent()) {
            String auth = authorization.get();
            pending.put("job", async(() -> SourceShapes.job(jobs.job(task.jobId(), auth))));
            pending.put("pods", async(() -> SourceShapes.pods(jobs.pods(task.jobId(), auth))));
            pending.put("events", async(() -> SourceShapes.events(events.events(task.jobId(), from, to, auth))));
            pending.put("logs", async(() -> SourceShapes.logs(logs.logs(task.jobId(), from, to,
                    config.evidence().maxLogLines(), auth))));
            pending.put("metrics", async(() -> MetricShapes.metrics(metrics.metrics(task.jobId(),
                    names.stream().map(MetricShapes::shortName).toList(), from, to, auth))));
        }
        ObjectNode bundle = Json.object();
        List<String> missing = new ArrayList<>();
        Map<String, String> errors = new LinkedHashMap<>();
        for (String section : List.of("job", "pods", "events", "logs", "metrics")) {
            CompletableFuture<JsonNode> f = pending.get(section);
            JsonNode got = null;
            if (f == null) {
                errors.put(section, "no token to call " + SERVICE.get(section)
                        + " (automatic diagnosis without a service account)");
            } else {
                try {
                    got = f.join();
                } catch (RuntimeException e) {
                    errors.put(section, reason(section, e.getCause() != null ? e.getCause() : e));
                }
            }
            if (got == null) {
                missing.add(section);
                got = seed == null ? null : seed.get(section);
            }
            if (got != null) {
                bundle.set(section, got);
            }
        }
        addMissingJobFacts(bundle, seed, task);
        // The engine reads what it could not see: missing evidence lowers confidence, never reads as healthy.
        var nothing = bundle.putArray("missingSources");
        for (String section : List.of("job", "pods", "events", "logs", "metrics")) {
            if (!bundle.has(section)) {
                nothing.add(section);
            }
        }
        bundle.putObject("window").put("from", from).put("to", to);
        if (task.hint() != null) {
            bundle.put("hint", task.hint());
        }
        if (!errors.isEmpty()) {
            LOG.infof("diagnosis %s of %s: missing %s", task.id(), task.jobId(), errors);
        }
        return new Gathered(bundle, missing, errors);
    }

    /** Job facts the source lacked (e.g. retry counters) are taken from the seed, never overriding the source. */
    private static void addMissingJobFacts(ObjectNode bundle, ObjectNode seed, DiagnosisTask task) {
        ObjectNode job = bundle.path("job").isObject() ? (ObjectNode) bundle.get("job") : bundle.putObject("job");
        if (seed != null && seed.path("job").isObject()) {
            seed.get("job").fields().forEachRemaining(e -> {
                if (!job.hasNonNull(e.getKey())) {
                    job.set(e.getKey(), e.getValue());
                }
            });
        }
        if (!job.hasNonNull("id")) {
            job.put("id", task.jobId());
        }
        for (String list : List.of("pods", "events", "logs", "metrics")) {
            if (!(bundle.get(list) instanceof ArrayNode)) {
                bundle.remove(list);
            }
        }
    }

    /** Why a section is missing, for the API: no exception names or messages of other libraries. */
    private static String reason(String section, Throwable e) {
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

    private CompletableFuture<JsonNode> async(Supplier<JsonNode> call) {
        return CompletableFuture.supplyAsync(call, calls);
    }

    void stop(@Observes ShutdownEvent event) {
        calls.shutdownNow();
    }
}
