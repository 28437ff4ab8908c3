package io.jobmon.events.query;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;

/**
 * One event of a job as {@code GET /api/v1/jobs/{id}/events} returns it.
 *
 * @param time the latest occurrence (the order of the list)
 * @param count occurrences of this event object (Kubernetes aggregates repeats into one object)
 * @param pod the pod it is about, when it is about a pod
 * @param omitted present on the latest kept event of a reason when earlier ones were counted, not kept (quota)
 * @param node on an event about a node the job's pods ran on (NodeNotReady, SystemOOM, node-problem-detector's
 *        kernel events, ...): that node; absent on the job's own events
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record EventItem(Instant time, String type, String reason, String message, int count, Instant firstTime,
        Instant lastTime, String pod, InvolvedObject object, String source, String cluster, Omitted omitted,
        String node) {

    /** The Kubernetes object the event is about ({@code involvedObject}). */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record InvolvedObject(String kind, String name, String namespace, String fieldPath) {
    }

    /** Event objects of this reason between the first and this one that the quota counted instead of keeping. */
    public record Omitted(int events, long occurrences) {
    }
}
