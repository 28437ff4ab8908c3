package io.jobmon.logs.intake;

import java.util.Locale;

/**
 * What a shipper's container record says of the pod beyond its name: its UID (Fluent Bit's kubernetes filter
 * {@code kubernetes.pod_id}, Vector's {@code kubernetes.pod_uid}) and the container's runtime id (Fluent Bit's
 * {@code kubernetes.docker_id}, Vector's {@code kubernetes.container_id}, with or without {@code containerd://}). The
 * kernel names pods and containers by these in cgroup paths and containerd by the id: they tell a node's lines of
 * this pod from another's ({@code attribution/}). Stored once per new (pod, uid, container id).
 */
public record PodIdentity(String namespace, String pod, String uid, String containerId, String node) {

    /** The identity a record carries, or null when it names neither a UID nor a container id. */
    public static PodIdentity of(String namespace, String pod, String uid, String containerId, String node) {
        String u = uid == null || uid.isBlank() ? "" : uid.trim().toLowerCase(Locale.ROOT);
        String c = containerId == null ? "" : containerId.trim().toLowerCase(Locale.ROOT);
        int scheme = c.indexOf("://");
        if (scheme >= 0) {
            c = c.substring(scheme + 3);
        }
        if (pod == null || u.isEmpty() && c.isEmpty()) {
            return null;
        }
        return new PodIdentity(namespace == null ? "" : namespace, pod, u, c, node == null ? "" : node);
    }
}
