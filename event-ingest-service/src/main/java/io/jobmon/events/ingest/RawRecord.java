package io.jobmon.events.ingest;

import io.jobmon.events.k8s.EventView;
import io.jobmon.events.k8s.PodView;
import java.time.Instant;

/**
 * One decoded record of {@code jobmon.k8s.raw}: a pod or an event (exactly one is set), where it came from and,
 * once resolved, the job it belongs to.
 */
public record RawRecord(int partition, long offset, Instant kafkaTime, String cluster, String region, String jobId,
        PodView pod, EventView event) {

    /** This record read away from its position (on the consumer's polling thread), placed at it. */
    public RawRecord at(int partition, long offset, Instant kafkaTime) {
        return new RawRecord(partition, offset, kafkaTime, cluster, region, jobId, pod, event);
    }

    public RawRecord withJobId(String id) {
        return new RawRecord(partition, offset, kafkaTime, cluster, region, id, pod, event);
    }

    /** Where the object's pod lives, for resolving an event to its job: {@code cluster/namespace/name}. */
    public String objectKey() {
        if (pod != null) {
            return cluster + "/" + pod.namespace() + "/" + pod.name();
        }
        return cluster + "/" + event.objectNamespace() + "/" + event.objectName();
    }
}
