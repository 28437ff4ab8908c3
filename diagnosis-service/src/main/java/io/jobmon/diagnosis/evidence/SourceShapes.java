package io.jobmon.diagnosis.evidence;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Turns the answers of job-service, event-ingest-service and log-service into the sections of an evidence bundle
 * (diagnosis.md). Lenient on purpose: field names of api.md first, then the usual alternatives; an entry whose
 * time cannot be read is dropped rather than failing the whole diagnosis.
 */
public final class SourceShapes {

    private SourceShapes() {
    }

    /** {@code GET /api/v1/jobs/{id}} → {@code job}. */
    public static ObjectNode job(JsonNode d) {
        ObjectNode job = Json.object();
        Json.put(job, "id", Json.text(d, "id", "jobId"));
        Json.put(job, "name", Json.text(d, "name", "spec.name"));
        Json.put(job, "status", Json.text(d, "status"));
        Json.put(job, "submittedAt", Json.time(d, "submittedAt"));
        Json.put(job, "startedAt", Json.time(d, "startedAt"));
        Json.put(job, "finishedAt", Json.time(d, "finishedAt"));
        Json.put(job, "gpuSpec", gpuSpec(d));
        Json.put(job, "queue", Json.text(d, "queue", "spec.queue"));
        Json.put(job, "priority", Json.text(d, "priority", "spec.priority"));
        Json.putBool(job, "supportsRestart", d, "supportsRestart", "retry.supportsRestart", "spec.supportsRestart");
        Json.putInt(job, "retryCount", d, "retryCount", "retry.retriesUsed", "retry.count", "retry.retryCount");
        Json.putInt(job, "maxRetries", d, "maxRetries", "retry.maxRetries", "spec.maxRetries", "retry.max");
        return job;
    }

    /**
     * The reason job-service keeps for a job that failed or went abnormal ({@code reason}, {@code message}: the
     * strings event-ingest took from Kubernetes), as a Warning event of the job; null for any other job.
     */
    public static ObjectNode transition(JsonNode d) {
        String status = Json.text(d, "status");
        String reason = Json.text(d, "reason");
        if (!("FAILED".equals(status) || "ABNORMAL".equals(status)) || reason == null) {
            return null;
        }
        String time = Json.time(d, "finishedAt", "updatedAt");
        if (time == null) {
            return null;
        }
        ObjectNode ev = Json.object();
        ev.put("time", time);
        ev.put("type", "Warning");
        ev.put("reason", reason);
        Json.put(ev, "object", "Job/" + Json.text(d, "id"));
        Json.put(ev, "message", Json.text(d, "message"));
        return ev;
    }

    /**
     * Fills the job's fault-tolerance facts from {@code GET /api/v1/jobs/{id}/attempts} where the detail lacked them:
     * restarts used in its chain, the limit, restart support.
     */
    public static void addAttempts(ObjectNode job, JsonNode attempts) {
        if (attempts == null || !attempts.isObject()) {
            return;
        }
        ObjectNode facts = Json.object();
        Json.putInt(facts, "retryCount", attempts, "retriesUsed");
        Json.putInt(facts, "maxRetries", attempts, "maxRetries");
        Json.putBool(facts, "supportsRestart", attempts, "supportsRestart");
        facts.fields().forEachRemaining(e -> {
            if (!job.hasNonNull(e.getKey())) {
                job.set(e.getKey(), e.getValue());
            }
        });
    }

    /** "2*A800": as given, or from the GPU type and count (total or per replica × replicas). */
    static String gpuSpec(JsonNode d) {
        String spec = Json.text(d, "gpuSpec");
        if (spec != null) {
            return spec;
        }
        String type = Json.text(d, "gpuType", "gpu", "gpus.type", "resources.gpuType", "spec.resources.gpuType");
        String count = Json.text(d, "gpuCount", "gpus.count", "gpus.total");
        if (count == null) {
            String per = Json.text(d, "gpusPerReplica", "resources.gpusPerReplica", "spec.resources.gpusPerReplica");
            String replicas = Json.text(d, "replicas", "spec.replicas");
            if (per != null && per.matches("\\d+")) {
                count = String.valueOf(Integer.parseInt(per)
                        * (replicas != null && replicas.matches("\\d+") ? Integer.parseInt(replicas) : 1));
            }
        }
        return type == null ? null : (count == null ? "" : count + "*") + type;
    }

    /** {@code GET /api/v1/jobs/{id}/pods} → {@code pods}. */
    public static ArrayNode pods(JsonNode answer) {
        ArrayNode out = Json.array();
        for (JsonNode p : Json.items(answer, "items", "pods")) {
            ObjectNode pod = out.addObject();
            Json.put(pod, "name", Json.text(p, "name"));
            Json.put(pod, "node", Json.text(p, "node", "nodeName"));
            Json.put(pod, "phase", Json.text(p, "phase"));
            Json.put(pod, "reason", Json.text(p, "reason"));
            Json.put(pod, "message", Json.text(p, "message"));
            ArrayNode containers = pod.putArray("containers");
            for (JsonNode c : Json.items(p.path("containers"))) {
                ObjectNode co = containers.addObject();
                Json.put(co, "name", Json.text(c, "name"));
                Json.put(co, "state", Json.text(c, "state"));
                Json.put(co, "reason", Json.text(c, "reason"));
                Json.put(co, "message", Json.text(c, "message"));
                Json.putInt(co, "exitCode", c, "exitCode");
                Json.putInt(co, "restartCount", c, "restartCount", "restarts");
            }
        }
        return out;
    }

    /** {@code GET /api/v1/jobs/{id}/events} (a page) → {@code events}. */
    public static ArrayNode events(JsonNode answer) {
        ArrayNode out = Json.array();
        addEvents(out, answer);
        return out;
    }

    /** Adds a page of events; the events of a node the job ran on are about {@code Node/<node>}. */
    public static void addEvents(ArrayNode out, JsonNode answer) {
        for (JsonNode e : Json.items(answer, "items", "events")) {
            String time = Json.time(e, "time", "lastTime", "lastTimestamp", "eventTime", "firstTime", "firstTimestamp");
            if (time == null) {
                continue;
            }
            ObjectNode ev = out.addObject();
            ev.put("time", time);
            Json.put(ev, "type", Json.text(e, "type"));
            Json.put(ev, "reason", Json.text(e, "reason"));
            Json.put(ev, "object", object(e));
            Json.put(ev, "message", Json.text(e, "message", "note"));
        }
    }

    private static String object(JsonNode e) {
        String object = Json.text(e, "object");
        if (object != null) {
            return object;
        }
        String kind = Json.text(e, "object.kind", "objectKind", "involvedObject.kind", "regarding.kind");
        String name = Json.text(e, "object.name", "objectName", "involvedObject.name", "regarding.name", "pod");
        String node = Json.text(e, "node");
        if (name == null && node != null) {
            return "Node/" + node;
        }
        return name == null ? null : (kind == null ? "Pod" : kind) + "/" + name;
    }

    /** {@code GET /api/v1/jobs/{id}/logs} → {@code logs}, oldest first. */
    public static ArrayNode logs(JsonNode answer) {
        ArrayNode out = Json.array();
        for (JsonNode l : Json.items(answer, "items", "lines", "logs")) {
            ObjectNode lo = logLine(l);
            if (lo != null) {
                out.add(lo);
            }
        }
        return sortByTime(out);
    }

    /** One log-service line → a bundle line (null without text). */
    static ObjectNode logLine(JsonNode l) {
        String line = Json.text(l, "line", "message", "text", "log");
        if (line == null) {
            return null;
        }
        ObjectNode lo = Json.object();
        Json.put(lo, "time", Json.time(l, "time", "timestamp"));
        Json.put(lo, "pod", Json.text(l, "pod"));
        Json.put(lo, "container", Json.text(l, "container"));
        Json.put(lo, "stream", Json.text(l, "stream", "type"));
        Json.put(lo, "node", Json.text(l, "node"));
        if (l.path("attribution").isObject()) {
            // why log-service shows this system line with the job (pod, gpu, node): the guard's proof of ownership
            lo.set("attribution", l.get("attribution").deepCopy());
        }
        lo.put("line", line);
        return lo;
    }

    private static ArrayNode sortByTime(ArrayNode lines) {
        List<JsonNode> list = new ArrayList<>();
        lines.forEach(list::add);
        list.sort(Comparator.comparing(n -> n.path("time").asText("")));
        ArrayNode out = Json.array();
        list.forEach(out::add);
        return out;
    }
}
