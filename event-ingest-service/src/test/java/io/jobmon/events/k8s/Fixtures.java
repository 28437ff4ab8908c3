package io.jobmon.events.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.K8sRawObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** Pod and Event objects in real Kubernetes shapes, from {@code src/test/resources/k8s}. */
public final class Fixtures {

    private Fixtures() {
    }

    public static JsonNode json(String name) {
        try (InputStream in = Fixtures.class.getResourceAsStream("/k8s/" + name + ".json")) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture " + name);
            }
            return CloudEvents.MAPPER.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static PodView pod(String name) {
        return PodParser.parse(json(name), false);
    }

    public static EventView event(String name) {
        return EventParser.parse(json(name));
    }

    /** The fixture with its identity changed: another job, pod, uid and resourceVersion (for store tests). */
    public static JsonNode retarget(String name, String jobId, String podName, String uid, long resourceVersion) {
        ObjectNode o = (ObjectNode) json(name);
        ObjectNode meta = (ObjectNode) o.get("metadata");
        meta.put("resourceVersion", String.valueOf(resourceVersion));
        if ("Pod".equals(o.path("kind").asText())) {
            meta.put("name", podName);
            meta.put("uid", uid);
            ((ObjectNode) meta.get("labels")).put(PodParser.JOB_LABEL, jobId);
        } else {
            meta.put("uid", uid);
            meta.put("name", podName + "." + uid);
            ((ObjectNode) o.get("involvedObject")).put("name", podName);
        }
        return o;
    }

    /** A {@code jobmon.k8s.raw} record value as a watcher or an agent publishes it. */
    public static String record(String cluster, String watchType, JsonNode object, String jobId) {
        return CloudEvents.encode("/test", K8sRawObject.TYPE, jobId, new K8sRawObject(cluster, "test-region", watchType,
                object, jobId));
    }
}
