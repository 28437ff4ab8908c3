package io.jobmon.diagnosis.engine;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Everything the engine looks at for one job: the contract's evidence bundle (job, pods with
 * containers, Kubernetes events, log lines, metric series, the time window and a free-text hint),
 * plus the sources the service could not reach ({@code missingSources}).
 * Every section may be missing; lists are never {@code null} (empty instead), {@link #job()},
 * {@link #window()} and {@link #hint()} may be {@code null}.
 *
 * <p>An empty section and a missing source differ: {@code "logs": []} says the log source answered
 * and had nothing for the window; {@code "missingSources": ["logs"]} says nobody could tell. The
 * engine lowers its confidence for every missing source and answers {@link Category#UNKNOWN} rather
 * than guess when what is left does not decide.
 *
 * <p>Build one from JSON with {@link #fromJson(JsonNode)}, which validates types and times and
 * ignores unknown keys (such as a sample file's {@code expect}).
 *
 * @param missingSources sources that could not be reached, a subset of {@link #SOURCES}
 */
public record EvidenceBundle(
        Job job,
        List<Pod> pods,
        List<Event> events,
        List<LogLine> logs,
        List<Metric> metrics,
        Window window,
        String hint,
        Set<String> missingSources) {

    /** Source names a bundle may list in {@code missingSources}. */
    public static final Set<String> SOURCES = Set.of("job", "pods", "events", "logs", "metrics");

    public EvidenceBundle {
        pods = pods == null ? List.of() : List.copyOf(pods);
        events = events == null ? List.of() : List.copyOf(events);
        logs = logs == null ? List.of() : List.copyOf(logs);
        metrics = metrics == null ? List.of() : List.copyOf(metrics);
        missingSources = missingSources == null ? Set.of() : Set.copyOf(missingSources);
        if (!SOURCES.containsAll(missingSources)) {
            throw new IllegalArgumentException("missingSources must be a subset of " + SOURCES + ": " + missingSources);
        }
    }

    /** A bundle with every source reachable (the contract's sections only). */
    public EvidenceBundle(Job job, List<Pod> pods, List<Event> events, List<LogLine> logs, List<Metric> metrics,
                          Window window, String hint) {
        this(job, pods, events, logs, metrics, window, hint, Set.of());
    }

    /** Whether the service could not reach {@code source} ({@code job}, {@code pods}, {@code events}, ...). */
    public boolean missing(String source) {
        return missingSources.contains(source);
    }

    /**
     * Parses and validates a bundle.
     *
     * @throws BundleValidationException naming the JSON path of the first malformed value
     */
    public static EvidenceBundle fromJson(JsonNode json) {
        return BundleParser.parse(json);
    }

    /** The job; all fields may be {@code null}. {@code status} is upper-cased. */
    public record Job(String id, String name, String status, Instant submittedAt, Instant startedAt,
                      Instant finishedAt, String gpuSpec, String queue, Boolean supportsRestart,
                      Integer retryCount, Integer maxRetries, String priority) {
    }

    /** A pod with its current phase and containers; {@code reason}/{@code message} are optional. */
    public record Pod(String name, String node, String phase, String reason, String message,
                      List<Container> containers) {
        public Pod {
            containers = containers == null ? List.of() : List.copyOf(containers);
        }
    }

    /** A container's current state ({@code waiting|running|terminated}), reason and exit code. */
    public record Container(String name, String state, String reason, Integer exitCode,
                            Integer restartCount, String message) {
    }

    /** A Kubernetes-style event; {@code object} is {@code Kind/name}, e.g. {@code Pod/w-0}. */
    public record Event(Instant time, String type, String reason, String object, String message) {
    }

    /** One log line; {@code stream} is {@code user} or {@code system}. */
    public record LogLine(Instant time, String pod, String container, String stream, String line) {
    }

    /** A metric series with its labels, as dcgm-exporter / node_exporter publish them. */
    public record Metric(String name, Map<String, String> labels, List<Sample> samples) {
        public Metric {
            labels = labels == null ? Map.of() : Map.copyOf(labels);
            samples = samples == null ? List.of() : List.copyOf(samples);
        }

        /** The label value or {@code null}. */
        public String label(String key) {
            return labels.get(key);
        }
    }

    /** One metric sample. */
    public record Sample(Instant time, double value) {
    }

    /** The time window the evidence was collected for. */
    public record Window(Instant from, Instant to) {
    }
}
