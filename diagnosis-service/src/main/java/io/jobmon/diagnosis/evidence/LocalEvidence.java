package io.jobmon.diagnosis.evidence;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jobmon.contracts.events.JobSnapshot;
import io.jobmon.contracts.events.JobStatusChanged;
import io.jobmon.contracts.events.PodSummary;
import java.time.Instant;

/**
 * Evidence the service has without asking anybody: the job snapshot of {@code jobmon.job.changes} and the status
 * record of {@code jobmon.job.status} (with its pods, container reasons and exit codes). It is the seed of an
 * automatic diagnosis, used for every section a source could not give.
 */
public final class LocalEvidence {

    private LocalEvidence() {
    }

    /** {@code {"job": {...}}} from a snapshot. */
    public static ObjectNode fromSnapshot(JobSnapshot s) {
        ObjectNode seed = Json.object();
        ObjectNode job = seed.putObject("job");
        Json.put(job, "id", s.jobId());
        Json.put(job, "name", s.name());
        Json.put(job, "status", s.status() == null ? null : s.status().name());
        Json.put(job, "submittedAt", time(s.submittedAt()));
        Json.put(job, "startedAt", time(s.startedAt()));
        Json.put(job, "finishedAt", time(s.finishedAt()));
        Json.put(job, "gpuSpec", s.gpuType() == null ? null : s.gpuCount() + "*" + s.gpuType());
        Json.put(job, "queue", s.queue());
        job.put("supportsRestart", s.supportsRestart());
        job.put("retryCount", s.retryCount());
        job.put("maxRetries", s.maxRetries());
        return seed;
    }

    /**
     * {@code {"job": {id, status}, "pods": [...], "events": [the transition]}} from a status record. The transition's
     * reason and message are the strings event-ingest took from Kubernetes, so they are quoted as a Warning event of
     * the job.
     */
    public static ObjectNode fromStatus(JobStatusChanged c) {
        ObjectNode seed = Json.object();
        ObjectNode job = seed.putObject("job");
        job.put("id", c.jobId());
        job.put("status", c.status().name());
        if (c.pods() != null && !c.pods().isEmpty()) {
            ArrayNode pods = seed.putArray("pods");
            for (PodSummary p : c.pods()) {
                ObjectNode pod = pods.addObject();
                Json.put(pod, "name", p.name());
                Json.put(pod, "node", p.node());
                Json.put(pod, "phase", p.phase());
                Json.put(pod, "reason", p.reason());
                ArrayNode containers = pod.putArray("containers");
                if (p.containers() != null) {
                    for (PodSummary.ContainerSummary cs : p.containers()) {
                        ObjectNode co = containers.addObject();
                        Json.put(co, "name", cs.name());
                        Json.put(co, "state", cs.state());
                        Json.put(co, "reason", cs.reason());
                        if (cs.exitCode() != null) {
                            co.put("exitCode", cs.exitCode());
                        }
                        co.put("restartCount", cs.restartCount());
                    }
                }
            }
        }
        if (c.reason() != null || c.message() != null) {
            ObjectNode ev = seed.putArray("events").addObject();
            ev.put("time", c.time().toString());
            ev.put("type", "Warning");
            Json.put(ev, "reason", c.reason());
            ev.put("object", "Job/" + c.jobId());
            Json.put(ev, "message", c.message());
        }
        return seed;
    }

    /** The seed {@code over} wins; the job facts of {@code under} fill what it lacks. */
    public static ObjectNode merge(ObjectNode over, ObjectNode under) {
        if (over == null) {
            return under;
        }
        if (under == null) {
            return over;
        }
        ObjectNode out = over.deepCopy();
        ObjectNode job = out.path("job").isObject() ? (ObjectNode) out.get("job") : out.putObject("job");
        under.path("job").fields().forEachRemaining(e -> {
            if (!job.hasNonNull(e.getKey())) {
                job.set(e.getKey(), e.getValue());
            }
        });
        under.fields().forEachRemaining(e -> {
            if (!out.has(e.getKey())) {
                out.set(e.getKey(), e.getValue());
            }
        });
        return out;
    }

    private static String time(Instant t) {
        return t == null ? null : t.toString();
    }
}
