package io.jobmon.diagnosis.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jobmon.diagnosis.engine.EvidenceBundle;
import java.time.Instant;

/** An {@link EvidenceBundle} in the contract's JSON form (what {@code POST /api/v1/diagnoses/analyze} takes). */
public final class BundleJson {

    static final ObjectMapper JSON = new ObjectMapper();

    private BundleJson() {
    }

    public static ObjectNode of(EvidenceBundle b) {
        ObjectNode root = JSON.createObjectNode();
        EvidenceBundle.Job j = b.job();
        if (j != null) {
            ObjectNode job = root.putObject("job");
            job.put("id", j.id()).put("name", j.name()).put("status", j.status()).put("gpuSpec", j.gpuSpec())
                    .put("queue", j.queue());
            time(job, "submittedAt", j.submittedAt());
            time(job, "startedAt", j.startedAt());
            time(job, "finishedAt", j.finishedAt());
        }
        ArrayNode pods = root.putArray("pods");
        for (EvidenceBundle.Pod p : b.pods()) {
            ObjectNode pod = pods.addObject().put("name", p.name()).put("node", p.node()).put("phase", p.phase());
            ArrayNode cs = pod.putArray("containers");
            for (EvidenceBundle.Container c : p.containers()) {
                ObjectNode co = cs.addObject().put("name", c.name()).put("state", c.state()).put("reason", c.reason());
                if (c.exitCode() != null) {
                    co.put("exitCode", c.exitCode());
                }
            }
        }
        ArrayNode events = root.putArray("events");
        for (EvidenceBundle.Event e : b.events()) {
            events.addObject().put("time", e.time().toString()).put("type", e.type()).put("reason", e.reason())
                    .put("object", e.object()).put("message", e.message());
        }
        ArrayNode logs = root.putArray("logs");
        for (EvidenceBundle.LogLine l : b.logs()) {
            logs.addObject().put("time", l.time().toString()).put("pod", l.pod()).put("container", l.container())
                    .put("stream", l.stream()).put("line", l.line());
        }
        ArrayNode metrics = root.putArray("metrics");
        for (EvidenceBundle.Metric m : b.metrics()) {
            ObjectNode mo = metrics.addObject().put("name", m.name());
            ObjectNode labels = mo.putObject("labels");
            m.labels().forEach(labels::put);
            ArrayNode samples = mo.putArray("samples");
            for (EvidenceBundle.Sample s : m.samples()) {
                samples.addArray().add(s.time().toString()).add(s.value());
            }
        }
        if (b.window() != null) {
            root.putObject("window").put("from", b.window().from().toString()).put("to", b.window().to().toString());
        }
        return root;
    }

    public static byte[] bytes(EvidenceBundle b) {
        try {
            return JSON.writeValueAsBytes(of(b));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void time(ObjectNode o, String field, Instant t) {
        if (t != null) {
            o.put(field, t.toString());
        }
    }
}
