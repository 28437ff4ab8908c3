package io.jobmon.events.ingest;

import io.jobmon.contracts.events.JobStatusChanged;
import io.jobmon.events.k8s.EventView;
import io.jobmon.events.k8s.PodView;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What applying a batch changes in the store: written together in one transaction. */
public final class BatchWrites {

    /** A pod to upsert (newest resourceVersion of the batch). */
    public record PodWrite(String cluster, PodView pod) {
    }

    /** An event to upsert (newest resourceVersion of the batch). */
    public record EventWrite(String cluster, String jobId, EventView event) {
    }

    /** An event about a node to upsert (newest resourceVersion of the batch). */
    public record NodeEventWrite(String cluster, EventView event) {
    }

    /** A previously kept "latest" event that the quota now counts instead. */
    public record Eviction(String uid, Instant createdAt) {
    }

    final Map<String, PodWrite> pods = new LinkedHashMap<>();
    final Map<String, EventWrite> events = new LinkedHashMap<>();
    final Map<String, NodeEventWrite> nodeEvents = new LinkedHashMap<>();
    final List<Eviction> evictions = new ArrayList<>();
    final List<JobStatusChanged> transitions = new ArrayList<>();
    int stored;
    int unchanged;
    int counted;
    int unattributed;
    int expired;
    int podUpdates;

    void pod(String cluster, PodView pod) {
        pods.put(cluster + "/" + pod.namespace() + "/" + pod.name(), new PodWrite(cluster, pod));
    }

    void event(String cluster, String jobId, EventView e) {
        String key = cluster + "/" + e.uid();
        EventWrite known = events.get(key);
        if (known == null || known.event().resourceVersion() < e.resourceVersion()) {
            events.put(key, new EventWrite(cluster, jobId, e));
        }
    }

    void nodeEvent(String cluster, EventView e) {
        String key = cluster + "/" + e.uid();
        NodeEventWrite known = nodeEvents.get(key);
        if (known == null || known.event().resourceVersion() < e.resourceVersion()) {
            nodeEvents.put(key, new NodeEventWrite(cluster, e));
        }
    }

    void evict(String cluster, EventQuota.Replace r) {
        EventWrite pending = events.remove(cluster + "/" + r.evictedUid());
        if (pending == null && r.evictedCreated() != null) {
            evictions.add(new Eviction(r.evictedUid(), r.evictedCreated()));
        }
    }

    /** The records for {@code jobmon.job.status}: transitions, then one pods-only record per job whose pods changed. */
    public List<JobStatusChanged> transitions() {
        return transitions;
    }

    /** Pods-only records among {@link #transitions()}. */
    public int podUpdates() {
        return podUpdates;
    }

    public Map<String, PodWrite> pods() {
        return pods;
    }

    public Map<String, EventWrite> events() {
        return events;
    }

    public Map<String, NodeEventWrite> nodeEvents() {
        return nodeEvents;
    }

    public List<Eviction> evictions() {
        return evictions;
    }

    /** Records that changed the store (new or newer pods and events, counted events). */
    public int stored() {
        return stored;
    }

    /** Duplicates and stale updates: nothing changed. */
    public int unchanged() {
        return unchanged;
    }

    public int counted() {
        return counted;
    }

    /** Events about objects of no known job, and pods without the job label. */
    public int unattributed() {
        return unattributed;
    }

    /** Events created before the retention window: used for status, not stored. */
    public int expired() {
        return expired;
    }
}
