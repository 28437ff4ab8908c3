package io.jobmon.contracts.events;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A Kubernetes object on {@code jobmon.k8s.raw}: a Pod or an Event exactly as the API server returned it.
 *
 * @param cluster the configured cluster name
 * @param region the cluster's region
 * @param watchType ADDED, MODIFIED, DELETED (as in a watch), or SYNC for a relist
 * @param object the API object, untouched ({@code kind} is {@code Pod} or {@code Event})
 * @param jobId the jobmon job the object belongs to when the producer knows it (the watcher does: from the
 *        {@code jobmon.io/job-id} label of the pod or Job an event is about); null otherwise, and consumers
 *        then resolve it themselves
 */
public record K8sRawObject(String cluster, String region, String watchType, JsonNode object, String jobId)
        implements Validatable {

    public static final String TYPE = "io.jobmon.k8s.raw.v1";

    /** A record from a producer that does not know the job (consumers resolve it from the pod's labels). */
    public K8sRawObject(String cluster, String region, String watchType, JsonNode object) {
        this(cluster, region, watchType, object, null);
    }

    public String kind() {
        return object == null ? null : object.path("kind").asText(null);
    }

    @Override
    public void validate() {
        Validatable.require(cluster != null && !cluster.isBlank(), "missing 'cluster'");
        Validatable.require(object != null && object.isObject(), "missing 'object'");
        Validatable.require("Pod".equals(kind()) || "Event".equals(kind()),
                "unsupported object kind '" + kind() + "' (expected Pod or Event)");
        Validatable.require(object.path("metadata").hasNonNull("name"), "object without metadata.name");
    }
}
