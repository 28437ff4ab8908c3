package io.jobmon.diagnosis.engine;

import static io.jobmon.diagnosis.engine.EngineJson.bool;
import static io.jobmon.diagnosis.engine.EngineJson.integer;
import static io.jobmon.diagnosis.engine.EngineJson.object;
import static io.jobmon.diagnosis.engine.EngineJson.requireObject;
import static io.jobmon.diagnosis.engine.EngineJson.scalarText;
import static io.jobmon.diagnosis.engine.EngineJson.text;
import static io.jobmon.diagnosis.engine.EngineJson.time;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * Validating JSON to {@link EvidenceBundle} conversion; every error names its JSON path.
 *
 * <p>Top-level keys: the contract's {@code job}, {@code pods}, {@code events}, {@code logs}, {@code metrics},
 * {@code window}, {@code hint}, and the optional {@code missingSources}: an array naming the sources the service
 * could not reach for this diagnosis, each one of {@code job}, {@code pods}, {@code events}, {@code logs},
 * {@code metrics} (case-insensitive; another name is a 400 at {@code missingSources[i]}). Missing sources lower the
 * confidence and can turn an undecided analysis into {@code UNKNOWN}; they never make the engine guess. Other keys
 * are ignored.
 */
final class BundleParser {

    private BundleParser() {
    }

    static EvidenceBundle parse(JsonNode root) {
        if (root == null || !root.isObject()) {
            throw new BundleValidationException("$", "json.expected.object", "the bundle must be a JSON object");
        }
        return new EvidenceBundle(
                job(object(root, "job", "job")),
                list(root, "pods", BundleParser::pod),
                list(root, "events", BundleParser::event),
                list(root, "logs", BundleParser::log),
                list(root, "metrics", BundleParser::metric),
                window(object(root, "window", "window")),
                text(root, "hint", "hint"),
                missingSources(root.get("missingSources")));
    }

    private static Set<String> missingSources(JsonNode n) {
        if (n == null || n.isNull()) {
            return Set.of();
        }
        if (!n.isArray()) {
            throw new BundleValidationException("missingSources", "json.expected.array",
                    "must be an array of source names");
        }
        Set<String> out = new LinkedHashSet<>();
        for (int i = 0; i < n.size(); i++) {
            JsonNode s = n.get(i);
            String name = s != null && s.isTextual() ? s.asText().trim().toLowerCase(Locale.ROOT) : null;
            if (name == null || !EvidenceBundle.SOURCES.contains(name)) {
                throw new BundleValidationException("missingSources[" + i + "]",
                        "bundle.missing-source", "must be one of job, pods, events, logs, metrics");
            }
            out.add(name);
        }
        return out;
    }

    private static EvidenceBundle.Job job(JsonNode n) {
        if (n == null) {
            return null;
        }
        String status = text(n, "status", "job.status");
        return new EvidenceBundle.Job(text(n, "id", "job.id"), text(n, "name", "job.name"),
                status == null ? null : status.trim().toUpperCase(Locale.ROOT),
                time(n, "submittedAt", "job.submittedAt"), time(n, "startedAt", "job.startedAt"),
                time(n, "finishedAt", "job.finishedAt"), text(n, "gpuSpec", "job.gpuSpec"),
                text(n, "queue", "job.queue"), bool(n, "supportsRestart", "job.supportsRestart"),
                integer(n, "retryCount", "job.retryCount"), integer(n, "maxRetries", "job.maxRetries"),
                scalarText(n, "priority", "job.priority"));
    }

    private static EvidenceBundle.Pod pod(JsonNode n, String path) {
        List<EvidenceBundle.Container> containers = new ArrayList<>();
        JsonNode cs = n.get("containers");
        if (cs != null && !cs.isNull()) {
            if (!cs.isArray()) {
                throw new BundleValidationException(path + ".containers", "json.expected.array", "must be an array");
            }
            for (int i = 0; i < cs.size(); i++) {
                String p = path + ".containers[" + i + "]";
                JsonNode c = requireObject(cs.get(i), p);
                containers.add(new EvidenceBundle.Container(text(c, "name", p + ".name"),
                        text(c, "state", p + ".state"), text(c, "reason", p + ".reason"),
                        integer(c, "exitCode", p + ".exitCode"), integer(c, "restartCount", p + ".restartCount"),
                        text(c, "message", p + ".message")));
            }
        }
        return new EvidenceBundle.Pod(text(n, "name", path + ".name"), text(n, "node", path + ".node"),
                text(n, "phase", path + ".phase"), text(n, "reason", path + ".reason"),
                text(n, "message", path + ".message"), containers);
    }

    private static EvidenceBundle.Event event(JsonNode n, String path) {
        return new EvidenceBundle.Event(time(n, "time", path + ".time"), text(n, "type", path + ".type"),
                text(n, "reason", path + ".reason"), text(n, "object", path + ".object"),
                text(n, "message", path + ".message"));
    }

    private static EvidenceBundle.LogLine log(JsonNode n, String path) {
        return new EvidenceBundle.LogLine(time(n, "time", path + ".time"), text(n, "pod", path + ".pod"),
                text(n, "container", path + ".container"), text(n, "stream", path + ".stream"),
                text(n, "line", path + ".line"));
    }

    private static EvidenceBundle.Metric metric(JsonNode n, String path) {
        String name = text(n, "name", path + ".name");
        Map<String, String> labels = new LinkedHashMap<>();
        JsonNode ls = object(n, "labels", path + ".labels");
        if (ls != null) {
            for (Map.Entry<String, JsonNode> e : ls.properties()) {
                if (e.getValue().isNull()) {
                    continue;
                }
                if (!e.getValue().isValueNode()) {
                    throw new BundleValidationException(path + ".labels." + e.getKey(), "json.expected.string",
                            "must be a string");
                }
                labels.put(e.getKey(), e.getValue().asText());
            }
        }
        List<EvidenceBundle.Sample> samples = new ArrayList<>();
        JsonNode ss = n.get("samples");
        if (ss != null && !ss.isNull()) {
            if (!ss.isArray()) {
                throw new BundleValidationException(path + ".samples", "bundle.samples",
                        "must be an array of [time, value] pairs");
            }
            for (int i = 0; i < ss.size(); i++) {
                samples.add(sample(ss.get(i), path + ".samples[" + i + "]"));
            }
        }
        return new EvidenceBundle.Metric(name, labels, samples);
    }

    private static EvidenceBundle.Sample sample(JsonNode s, String path) {
        if (s == null || !s.isArray() || s.size() != 2) {
            throw new BundleValidationException(path, "bundle.sample-pair", "a sample must be a [time, number] pair");
        }
        JsonNode t = s.get(0);
        Instant time;
        if (t.isTextual()) {
            time = EngineJson.parseInstant(t.asText());
        } else if (t.isNumber()) {
            time = Instant.ofEpochMilli(Math.round(t.asDouble() * 1000.0));
        } else {
            time = null;
        }
        if (time == null) {
            throw new BundleValidationException(path, "bundle.sample-time",
                    "the sample time must be an RFC 3339 string");
        }
        JsonNode v = s.get(1);
        double value;
        if (v.isNumber()) {
            value = v.asDouble();
        } else if (v.isTextual()) {
            try {
                value = Double.parseDouble(v.asText().trim());
            } catch (NumberFormatException e) {
                throw new BundleValidationException(path, "json.expected.number", "the sample value must be a number");
            }
        } else {
            throw new BundleValidationException(path, "json.expected.number", "the sample value must be a number");
        }
        return new EvidenceBundle.Sample(time, value);
    }

    private static EvidenceBundle.Window window(JsonNode n) {
        return n == null ? null : new EvidenceBundle.Window(time(n, "from", "window.from"), time(n, "to", "window.to"));
    }

    private static <T> List<T> list(JsonNode root, String key, BiFunction<JsonNode, String, T> element) {
        JsonNode a = root.get(key);
        if (a == null || a.isNull()) {
            return List.of();
        }
        if (!a.isArray()) {
            throw new BundleValidationException(key, "json.expected.array", "must be an array");
        }
        List<T> out = new ArrayList<>(a.size());
        for (int i = 0; i < a.size(); i++) {
            String path = key + "[" + i + "]";
            out.add(element.apply(requireObject(a.get(i), path), path));
        }
        return out;
    }
}
