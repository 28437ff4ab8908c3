package io.jobmon.events.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jobmon.events.k8s.Fixtures;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The benchmark's synthetic clusters: per job, 2 pods going created → scheduled → running → succeeded (8 pod
 * records), 5 distinct events per pod (Scheduled, Pulling, Pulled, Created, Started as Normal events) and a
 * readiness-probe warning repeated 82 times as updates of one event object: 100 records per job, in the order
 * the API server would produce them, with one global increasing resourceVersion.
 */
final class Workload {

    static final int PER_JOB = 100;
    private static final String[] POD_STEPS = {"pod-created", "pod-container-creating", "pod-running", "pod-succeeded"};
    private static final String[] NORMAL = {"Scheduled", "Pulling", "Pulled", "Created", "Started"};

    /** One record to produce: its key and value. */
    record Raw(String jobId, String key, String value) {
    }

    private final String cluster;
    private final Instant base = Instant.now().minusSeconds(600);
    private final JsonNode[] pods = new JsonNode[POD_STEPS.length];
    private final JsonNode event = Fixtures.json("event-backoff-1");
    private long rv = 1;

    Workload(String cluster) {
        this.cluster = cluster;
        for (int i = 0; i < POD_STEPS.length; i++) {
            pods[i] = Fixtures.json(POD_STEPS[i]);
        }
    }

    /** The 100 records of one job, in order. */
    List<Raw> job(String jobId) {
        List<Raw> out = new ArrayList<>(PER_JOB);
        String[] podNames = {jobId + "-0", jobId + "-1"};
        for (int step = 0; step < POD_STEPS.length; step++) {
            for (String pod : podNames) {
                out.add(pod(jobId, pod, step));
                if (step == 1) {
                    for (String reason : NORMAL) {
                        out.add(event(jobId, pod, pod + "-" + reason, "Normal", reason, 1));
                    }
                }
            }
            if (step == 2) {
                for (int n = 1; n <= 82; n++) {
                    out.add(event(jobId, podNames[0], podNames[0] + "-probe", "Warning", "Unhealthy", n));
                }
            }
        }
        return out;
    }

    private Raw pod(String jobId, String pod, int step) {
        ObjectNode o = pods[step].deepCopy();
        ObjectNode meta = (ObjectNode) o.get("metadata");
        meta.put("name", pod);
        meta.put("uid", "uid-" + pod);
        meta.put("resourceVersion", String.valueOf(rv++));
        meta.put("creationTimestamp", base.toString());
        ((ObjectNode) meta.get("labels")).put("jobmon.io/job-id", jobId);
        return new Raw(jobId, cluster + "/team-nlp/" + pod, Fixtures.record(cluster, "MODIFIED", o, jobId));
    }

    private Raw event(String jobId, String pod, String uid, String type, String reason, int count) {
        ObjectNode o = event.deepCopy();
        ObjectNode meta = (ObjectNode) o.get("metadata");
        meta.put("name", uid);
        meta.put("uid", uid);
        meta.put("resourceVersion", String.valueOf(rv++));
        meta.put("creationTimestamp", base.toString());
        ((ObjectNode) o.get("involvedObject")).put("name", pod);
        o.put("type", type);
        o.put("reason", reason);
        o.put("message", reason + " of " + pod);
        o.put("count", count);
        o.put("firstTimestamp", base.toString());
        o.put("lastTimestamp", base.plusSeconds(count).toString());
        return new Raw(jobId, cluster + "/team-nlp/" + pod, Fixtures.record(cluster, "MODIFIED", o, jobId));
    }
}
