package io.jobmon.events.k8s;

import java.time.Instant;

/**
 * A Kubernetes Event (core/v1, with the events.k8s.io/v1 names accepted too) as event-ingest stores it.
 *
 * @param createdAt {@code metadata.creationTimestamp} (or the first time known): never changes for one event
 *        object, so it is the day partition the event lives in
 * @param count occurrences so far: {@code series.count}, else {@code count}, else 1
 * @param lastTime the latest occurrence: {@code series.lastObservedTime}, {@code lastTimestamp},
 *        {@code eventTime} or {@code firstTimestamp}, in that order
 */
public record EventView(String namespace, String name, String uid, long resourceVersion, String type, String reason,
        String message, int count, Instant createdAt, Instant firstTime, Instant lastTime, String objectKind,
        String objectName, String objectNamespace, String fieldPath, String source) {

    /** The object and container the event is about, as the quota counts them: {@code Pod/name/fieldPath}. */
    public String objectKey() {
        return objectKey(objectKind, objectName, fieldPath);
    }

    /** {@link #objectKey()} of a stored event's columns. */
    public static String objectKey(String objectKind, String objectName, String fieldPath) {
        return objectKind + "/" + objectName + (fieldPath == null || fieldPath.isEmpty() ? "" : "/" + fieldPath);
    }

    public boolean aboutPod() {
        return "Pod".equals(objectKind);
    }

    public boolean aboutJob() {
        return "Job".equals(objectKind);
    }

    /** About a node (kubelet, node controller, node-problem-detector): kept per node, not per job. */
    public boolean aboutNode() {
        return "Node".equals(objectKind);
    }
}
