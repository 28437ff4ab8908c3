package io.jobmon.events.query;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * One event of a job as {@code GET /api/v1/jobs/{id}/events} returns it: Kubernetes' reason and message verbatim,
 * with the reason's stable jobmon code and a one-line explanation in the reader's language beside them.
 *
 * @param time the latest occurrence (the order of the list)
 * @param reasonCode the reason's stable code ({@code unschedulable}, {@code image-pull-failed}...), absent when unknown
 * @param reasonExplanation what the reason means, in the reader's language
 * @param count occurrences of this event object (Kubernetes aggregates repeats into one object)
 * @param pod the pod it is about, when it is about a pod
 * @param omitted present on the latest kept event of a reason when earlier ones were counted, not kept (quota)
 * @param node on an event about a node the job's pods ran on (NodeNotReady, SystemOOM, node-problem-detector's
 *        kernel events, ...): that node; absent on the job's own events
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(requiredProperties = {"time", "type", "count", "object", "cluster"})
public record EventItem(Instant time, @Schema(enumeration = {"Normal", "Warning"}) String type, String reason,
        String reasonCode, String reasonExplanation, String message, int count, Instant firstTime, Instant lastTime,
        String pod, InvolvedObject object, String source, String cluster, Omitted omitted, String node) {

    /** The Kubernetes object the event is about ({@code involvedObject}). */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record InvolvedObject(String kind, String name, String namespace, String fieldPath) {
    }

    /** Event objects of this reason between the first and this one that the quota counted instead of keeping. */
    @Schema(name = "OmittedEvents", requiredProperties = {"events", "occurrences"})
    public record Omitted(int events, long occurrences) {
    }

    /** This event with its reason explained in the reader's language. */
    EventItem explained(io.jobmon.contracts.i18n.Texts t) {
        io.jobmon.contracts.i18n.Texts.Explained e = t.reason(reason, message);
        return e == null ? this : new EventItem(time, type, reason, e.code(), e.explanation(), message, count,
                firstTime, lastTime, pod, object, source, cluster, omitted, node);
    }
}
