package io.jobmon.sim.replay;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.jobmon.sim.control.EventRecorder;
import io.jobmon.sim.control.Replay;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A bundle's events as core/v1 Events: {@code Pod/x} about the replayed pod, {@code Node/x} about the node (in
 * {@code default}), any other kind ({@code PyTorchJob/x}, {@code Job/x}) about the replay's Job; times shifted; the
 * recording component as the reason implies (scheduler, job controller, node controller, kubelet...).
 */
final class ReplayEvents {

    private final KubernetesClient client;
    private final String ns;
    private final String jobId;
    private final Job job;
    private final Map<String, Pod> pods;
    private final Map<String, String> nodeOfPod;
    private final Function<String, Instant> shifted;
    private final Supplier<Instant> now;
    private long lastNanos;

    ReplayEvents(KubernetesClient client, String ns, String jobId, Job job, Map<String, Pod> pods,
            Map<String, String> nodeOfPod, Function<String, Instant> shifted, Supplier<Instant> now) {
        this.client = client;
        this.ns = ns;
        this.jobId = jobId;
        this.job = job;
        this.pods = pods;
        this.nodeOfPod = nodeOfPod;
        this.shifted = shifted;
        this.now = now;
    }

    /** Creates the event; false when one of that name exists already. */
    boolean create(JsonNode e) {
        String object = e.path("object").asText("");
        String kind = object.contains("/") ? object.substring(0, object.indexOf('/')) : "Pod";
        String name = object.contains("/") ? object.substring(object.indexOf('/') + 1) : object;
        ObjectReference about;
        String evNs = ns;
        String host = null;
        if ("Pod".equals(kind)) {
            Pod p = pods.get(name);
            about = ref("Pod", "v1", ns, name, p != null ? p.getMetadata().getUid() : UUID.randomUUID().toString());
            host = nodeOfPod.get(name);
        } else if ("Node".equals(kind)) {
            var node = client.nodes().withName(name).get();
            about = ref("Node", "v1", null, name, node == null ? name : node.getMetadata().getUid());
            evNs = "default";
            host = name;
        } else {
            about = ref("Job", "batch/v1", ns, jobId, job.getMetadata().getUid());
        }
        String reason = e.path("reason").asText();
        String component = component(reason);
        Instant t = shifted.apply(e.path("time").asText(null));
        String time = EventRecorder.seconds(t == null ? now.get() : t);
        boolean kubelet = "kubelet".equals(component);
        var event = new EventBuilder().withNewMetadata().withName(about.getName() + "." + Long.toHexString(nanos(t)))
                .withNamespace(evNs).addToAnnotations(Replay.ANNOTATION, jobId).endMetadata()
                .withInvolvedObject(about).withType(e.path("type").asText("Normal")).withReason(reason)
                .withMessage(e.path("message").asText("")).withFirstTimestamp(time).withLastTimestamp(time)
                .withCount(Math.max(1, e.path("count").asInt(1))).withNewSource().withComponent(component)
                .withHost(kubelet ? host : null).endSource().withReportingComponent(component)
                .withReportingInstance(kubelet && host != null ? host : "").build();
        try {
            client.v1().events().inNamespace(evNs).resource(event).create();
            return true;
        } catch (KubernetesClientException ex) {
            if (ex.getCode() != 409) {
                throw ex;
            }
            return false;
        }
    }

    /** The component that records events of this reason. */
    static String component(String reason) {
        return switch (reason) {
            case "Scheduled", "FailedScheduling", "Preempted" -> "default-scheduler";
            case "FailedCreate", "SuccessfulCreate", "SuccessfulDelete", "BackoffLimitExceeded", "Completed" ->
                    "job-controller";
            case "NodeNotReady", "NodeReady" -> "node-controller";
            case "TaintManagerEviction" -> "taint-eviction-controller";
            case "NotTriggerScaleUp", "TriggeredScaleUp" -> "cluster-autoscaler";
            case "Evict" -> "volcano";
            default -> "kubelet";
        };
    }

    private long nanos(Instant t) {
        Instant at = t == null ? now.get() : t;
        long n = at.getEpochSecond() * 1_000_000_000L + at.getNano();
        lastNanos = Math.max(n, lastNanos + 1);
        return lastNanos;
    }

    private static ObjectReference ref(String kind, String apiVersion, String namespace, String name, String uid) {
        return new ObjectReferenceBuilder().withKind(kind).withApiVersion(apiVersion).withNamespace(namespace)
                .withName(name).withUid(uid).build();
    }
}
