package io.jobmon.diagnosis.evidence;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jobmon.diagnosis.config.DiagnosisConfig;
import io.jobmon.diagnosis.task.DiagnosisTask;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * Gathers a task's evidence bundle from the four services (each call bounded by its client's timeout and retries,
 * the calls side by side on a small pool): the job and its chain, then its pods, the window's events (its nodes'
 * included), its log lines ({@link LogEvidence}) and its metrics (the window at full resolution, the run before it
 * at 1-minute steps). Sections a source could not give fall back on what the service already knew (the task's
 * seed) and are named in {@link Gathered#missingSources()}: the diagnosis is made from the rest. What was read is
 * counted in {@link Gathered#read()}.
 */
@ApplicationScoped
public class EvidenceGatherer {

    private static final Logger LOG = Logger.getLogger(EvidenceGatherer.class);
    static final List<String> SECTIONS = List.of("job", "pods", "events", "logs", "metrics");

    private final JobServiceClient jobs;
    private final EventServiceClient events;
    private final LogServiceClient logs;
    private final MetricServiceClient metrics;
    private final DiagnosisConfig.Evidence config;
    private final ExecutorService calls;

    public EvidenceGatherer(JobServiceClient jobs, EventServiceClient events, LogServiceClient logs,
            MetricServiceClient metrics, DiagnosisConfig config) {
        this.jobs = jobs;
        this.events = events;
        this.logs = logs;
        this.metrics = metrics;
        this.config = config.evidence();
        this.calls = Executors.newFixedThreadPool(Math.max(2, this.config.parallelCalls()), r -> {
            Thread t = new Thread(r, "diagnosis-evidence");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Runs on the task's worker thread; only single calls (or one source's paging) go to the pool, so no pooled call
     * ever waits for another.
     *
     * @param authorization {@code Bearer ...} to forward; empty when there is none (then only the seed is used)
     * @param seed a partial bundle the service knew already (job, pods, events); may be null
     */
    public Gathered gather(DiagnosisTask task, Optional<String> authorization, ObjectNode seed) {
        Sections got = new Sections();
        if (authorization.isEmpty()) {
            SECTIONS.forEach(s -> got.fail(s, "no token to call " + SourceReads.SERVICE.get(s)
                    + " (automatic diagnosis without a service account)"));
        } else {
            read(task, authorization.get(), seed, got);
        }
        ObjectNode bundle = Json.object();
        for (String section : SECTIONS) {
            JsonNode value = got.values.containsKey(section) ? got.values.get(section)
                    : seed == null ? null : seed.get(section);
            if (value != null) {
                bundle.set(section, value);
            }
        }
        SourceReads.addMissingJobFacts(bundle, seed, task.jobId());
        // The engine reads what it could not see: missing evidence lowers confidence, never reads as healthy.
        ArrayNode nothing = bundle.putArray("missingSources");
        SECTIONS.stream().filter(s -> !bundle.has(s)).forEach(nothing::add);
        bundle.putObject("window").put("from", task.windowFrom().toString()).put("to", task.windowTo().toString());
        if (task.hint() != null) {
            bundle.put("hint", task.hint());
        }
        if (!got.errors.isEmpty()) {
            LOG.infof("diagnosis %s of %s: %s", task.id(), task.jobId(), got.errors);
        }
        LOG.debugf("diagnosis %s of %s read %s", task.id(), task.jobId(), got.read);
        return new Gathered(bundle, got.missing(), got.errors, got.read);
    }

    private void read(DiagnosisTask task, String auth, ObjectNode seed, Sections got) {
        String id = task.jobId();
        long start = System.nanoTime();
        Map<String, Long> ms = new java.util.concurrent.ConcurrentHashMap<>();
        got.read.put("ms", ms);
        CompletableFuture<JsonNode> detail = async(() -> jobs.job(id, auth));
        CompletableFuture<JsonNode> chain = async(() -> jobs.attempts(id, auth));
        ObjectNode job = null;
        JsonNode transition = null;
        try {
            JsonNode d = detail.join();
            job = SourceShapes.job(d);
            transition = SourceShapes.transition(d);
            SourceShapes.addAttempts(job, chain.exceptionally(e -> null).join());
            got.put("job", job);
        } catch (RuntimeException e) {
            got.fail("job", SourceReads.reason("job", e));
        }
        ms.put("job", elapsed(start));
        JsonNode facts = job != null ? job : seed == null ? null : seed.path("job");
        EvidencePlan plan = EvidencePlan.of(task.windowFrom(), task.windowTo(), time(facts, "submittedAt"),
                time(facts, "startedAt"), time(facts, "finishedAt"), config.maxRunPoints());
        SourceReads reads = new SourceReads(jobs, events, config);
        long sources = System.nanoTime();
        CompletableFuture<ArrayNode> pods = async(() -> timed(ms, "pods", sources, reads.pods(id, auth, got.read)));
        CompletableFuture<ArrayNode> evs = async(() -> timed(ms, "events", sources,
                reads.events(id, plan, auth, got.read)));
        List<String> names = (task.metrics().isEmpty() ? config.defaultMetrics() : task.metrics()).stream()
                .map(MetricShapes::shortName).distinct().toList();
        CompletableFuture<JsonNode> window = async(() -> timed(ms, "metricsWindow", sources, metrics.metrics(id, names,
                plan.windowFrom().toString(), plan.windowTo().toString(), null, auth)));
        CompletableFuture<JsonNode> run = plan.runFrom() == null ? null : async(() -> timed(ms, "metricsRun", sources,
                metrics.metrics(id, names, plan.runFrom().toString(), plan.windowFrom().toString(),
                        String.valueOf(plan.runStepSeconds()), auth)));
        try {
            LogEvidence.Result lines = new LogEvidence(logs, config, calls).read(id, plan, auth);
            got.put("logs", lines.lines());
            got.read.put("logs", lines.read());
            if (lines.partial() != null) {
                got.errors.put("logs.partial", lines.partial());
            }
        } catch (RuntimeException e) {
            got.fail("logs", SourceReads.reason("logs", e));
        }
        ms.put("logs", elapsed(sources));
        got.join("pods", pods);
        ArrayNode eventList = got.join("events", evs);
        if (eventList != null && transition != null) {
            eventList.add(transition);
        }
        try {
            ArrayNode series = MetricShapes.metrics(window.join());
            int windowPoints = MetricShapes.points(series);
            if (run != null) {
                try {
                    ArrayNode before = MetricShapes.metrics(run.join());
                    series = MetricShapes.join(before, series, plan.windowFrom().toString());
                } catch (RuntimeException e) {
                    got.errors.put("metrics.partial", "the run before the window: " + SourceReads.reason("metrics", e));
                }
            }
            got.put("metrics", series);
            got.read.put("metrics", Map.of("series", series.size(), "windowPoints", windowPoints,
                    "runPoints", MetricShapes.points(series) - windowPoints, "runStepSeconds", plan.runStepSeconds()));
        } catch (RuntimeException e) {
            got.fail("metrics", SourceReads.reason("metrics", e));
        }
        ms.put("total", elapsed(start));
    }

    private static long elapsed(long since) {
        return (System.nanoTime() - since) / 1_000_000;
    }

    /** Notes when a pooled read finished (ms since the reads started), for {@code evidenceRead.ms}. */
    private static <T> T timed(Map<String, Long> ms, String what, long since, T value) {
        ms.put(what, elapsed(since));
        return value;
    }

    private static Instant time(JsonNode job, String field) {
        String t = job == null ? null : Json.time(job, field);
        return t == null ? null : Instant.parse(t);
    }

    private <T> CompletableFuture<T> async(Supplier<T> call) {
        return CompletableFuture.supplyAsync(call, calls);
    }

    void stop(@Observes ShutdownEvent event) {
        calls.shutdownNow();
    }

    /** The sections gathered so far, why others are missing, and what was read. */
    static final class Sections {
        final Map<String, JsonNode> values = new LinkedHashMap<>();
        final Map<String, String> errors = new LinkedHashMap<>();
        final Map<String, Object> read = new java.util.concurrent.ConcurrentHashMap<>();

        void put(String section, JsonNode value) {
            values.put(section, value);
        }

        void fail(String section, String why) {
            errors.put(section, why);
        }

        <T extends JsonNode> T join(String section, CompletableFuture<T> f) {
            try {
                T v = f.join();
                put(section, v);
                return v;
            } catch (RuntimeException e) {
                fail(section, SourceReads.reason(section, e));
                return null;
            }
        }

        List<String> missing() {
            return SECTIONS.stream().filter(s -> !values.containsKey(s)).toList();
        }
    }
}
