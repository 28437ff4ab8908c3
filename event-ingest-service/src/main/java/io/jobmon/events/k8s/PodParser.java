package io.jobmon.events.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import io.jobmon.contracts.events.InvalidRecordException;
import java.util.ArrayList;
import java.util.List;

/** Reads a Pod object as the API server writes it into a {@link PodView}. */
public final class PodParser {

    /** The label job-service puts on every pod (and Job) it creates. */
    public static final String JOB_LABEL = "jobmon.io/job-id";

    private PodParser() {
    }

    /**
     * @param deleted the watch said DELETED
     * @throws InvalidRecordException when the object lacks what identifies it (name, uid, resourceVersion)
     */
    public static PodView parse(JsonNode pod, boolean deleted) {
        JsonNode meta = pod.path("metadata");
        JsonNode spec = pod.path("spec");
        JsonNode status = pod.path("status");
        String name = text(meta, "name");
        String uid = text(meta, "uid");
        if (uid == null) {
            throw new InvalidRecordException("pod " + name + " without metadata.uid");
        }
        List<ContainerView> containers = new ArrayList<>();
        status.path("initContainerStatuses").forEach(c -> containers.add(container(c, true)));
        status.path("containerStatuses").forEach(c -> containers.add(container(c, false)));
        List<PodView.Condition> conditions = new ArrayList<>();
        status.path("conditions").forEach(c -> conditions.add(new PodView.Condition(text(c, "type"),
                text(c, "status"), text(c, "reason"), text(c, "message"), K8sTime.parse(c.get("lastTransitionTime")))));
        return new PodView(text(meta, "namespace"), name, uid, text(meta.path("labels"), JOB_LABEL), ownerJob(meta),
                resourceVersion(meta, "pod " + name), deleted, K8sTime.parse(meta.get("creationTimestamp")),
                K8sTime.parse(meta.get("deletionTimestamp")), text(status, "phase"), text(status, "reason"),
                text(status, "message"), text(spec, "nodeName"), text(spec, "restartPolicy"), conditions, containers);
    }

    private static ContainerView container(JsonNode c, boolean init) {
        JsonNode state = c.path("state");
        String kind = state.has("terminated") ? "terminated" : state.has("running") ? "running"
                : state.has("waiting") ? "waiting" : null;
        JsonNode s = kind == null ? state : state.path(kind);
        JsonNode last = c.path("lastState").path("terminated");
        return new ContainerView(text(c, "name"), init, kind, text(s, "reason"), text(s, "message"),
                s.hasNonNull("exitCode") ? s.get("exitCode").asInt() : null, K8sTime.parse(s.get("startedAt")),
                K8sTime.parse(s.get("finishedAt")), c.path("restartCount").asInt(0), text(last, "reason"),
                last.hasNonNull("exitCode") ? last.get("exitCode").asInt() : null, K8sTime.parse(last.get("finishedAt")));
    }

    private static String ownerJob(JsonNode meta) {
        for (JsonNode ref : meta.path("ownerReferences")) {
            if ("Job".equals(text(ref, "kind"))) {
                return text(ref, "name");
            }
        }
        return null;
    }

    /** {@code metadata.resourceVersion}: an etcd revision, compared as a number. */
    static long resourceVersion(JsonNode meta, String what) {
        String rv = text(meta, "resourceVersion");
        if (rv == null) {
            throw new InvalidRecordException(what + " without metadata.resourceVersion");
        }
        try {
            return Long.parseLong(rv);
        } catch (NumberFormatException e) {
            throw new InvalidRecordException(what + " with a non-numeric metadata.resourceVersion '" + rv + "'");
        }
    }

    static String text(JsonNode node, String field) {
        JsonNode v = node == null ? null : node.get(field);
        return v == null || v.isNull() || v.asText().isEmpty() ? null : v.asText();
    }
}
