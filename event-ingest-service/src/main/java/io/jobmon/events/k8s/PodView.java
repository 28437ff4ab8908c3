package io.jobmon.events.k8s;

import java.time.Instant;
import java.util.List;

/**
 * What event-ingest keeps of a Pod: the fields the status mapping and the pod summaries need, parsed from the
 * object exactly as the API server writes it ({@link PodParser}).
 *
 * @param resourceVersion {@code metadata.resourceVersion} as a number (an etcd revision): an update older than
 *        the stored one changes nothing
 * @param deleted the watch reported the pod DELETED
 * @param k8sJob the batch/v1 Job that owns the pod ({@code ownerReferences}), if any
 * @param reason {@code status.reason} ({@code Evicted}, {@code NodeLost}, {@code DeadlineExceeded}...)
 */
public record PodView(String namespace, String name, String uid, String jobId, String k8sJob, long resourceVersion,
        boolean deleted, Instant createdAt, Instant deletionTimestamp, String phase, String reason, String message,
        String nodeName, String restartPolicy, List<Condition> conditions, List<ContainerView> containers) {

    public PodView {
        conditions = conditions == null ? List.of() : List.copyOf(conditions);
        containers = containers == null ? List.of() : List.copyOf(containers);
    }

    /** A {@code status.conditions[]} entry. */
    public record Condition(String type, String status, String reason, String message, Instant lastTransitionTime) {
        public boolean isTrue() {
            return "True".equals(status);
        }
    }

    public Condition condition(String type) {
        for (Condition c : conditions) {
            if (type.equals(c.type())) {
                return c;
            }
        }
        return null;
    }

    /** Scheduled to a node: {@code spec.nodeName} set or {@code PodScheduled=True}. */
    public boolean scheduled() {
        Condition c = condition("PodScheduled");
        return nodeName != null || c != null && c.isTrue();
    }

    public PodView markDeleted() {
        return gone(resourceVersion);
    }

    /**
     * A deletion whose final state nobody saw (the pod went while no watcher ran; a relist found it missing): the
     * watcher publishes the pod's identity without a status. A pod the API server reports always has a phase.
     */
    public boolean finalStateUnknown() {
        return deleted && phase == null;
    }

    /** This pod, as last known, deleted at {@code deletedVersion}. */
    public PodView gone(long deletedVersion) {
        return new PodView(namespace, name, uid, jobId, k8sJob, deletedVersion, true, createdAt, deletionTimestamp,
                phase, reason, message, nodeName, restartPolicy, conditions, containers);
    }
}
