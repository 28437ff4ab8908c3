package io.jobmon.events.k8s;

import static io.jobmon.events.k8s.PodParser.text;

import com.fasterxml.jackson.databind.JsonNode;
import io.jobmon.contracts.events.InvalidRecordException;
import java.time.Instant;

/**
 * Reads an Event as the API server writes it: core/v1 ({@code involvedObject}, {@code count},
 * {@code firstTimestamp}/{@code lastTimestamp}, {@code eventTime}, {@code series}, {@code source}) and the
 * events.k8s.io/v1 names of the same fields ({@code regarding}, {@code note}, {@code deprecatedCount}...).
 */
public final class EventParser {

    private EventParser() {
    }

    /** @throws InvalidRecordException when the event cannot be identified, placed in time or tied to an object */
    public static EventView parse(JsonNode e) {
        JsonNode meta = e.path("metadata");
        String name = text(meta, "name");
        String uid = text(meta, "uid");
        if (uid == null) {
            throw new InvalidRecordException("event " + name + " without metadata.uid");
        }
        JsonNode about = e.has("involvedObject") ? e.path("involvedObject") : e.path("regarding");
        if (text(about, "kind") == null || text(about, "name") == null) {
            throw new InvalidRecordException("event " + name + " without involvedObject kind and name");
        }
        JsonNode series = e.path("series");
        Instant first = K8sTime.first(K8sTime.parse(e.get("firstTimestamp")), K8sTime.parse(e.get("deprecatedFirstTimestamp")),
                K8sTime.parse(e.get("eventTime")));
        Instant last = K8sTime.first(K8sTime.parse(series.get("lastObservedTime")), K8sTime.parse(e.get("lastTimestamp")),
                K8sTime.parse(e.get("deprecatedLastTimestamp")), K8sTime.parse(e.get("eventTime")), first);
        Instant created = K8sTime.first(K8sTime.parse(meta.get("creationTimestamp")), first, last);
        if (last == null || created == null) {
            throw new InvalidRecordException("event " + name + " without any time (lastTimestamp, eventTime, firstTimestamp)");
        }
        int count = series.hasNonNull("count") ? series.get("count").asInt()
                : e.hasNonNull("count") ? e.get("count").asInt()
                : e.hasNonNull("deprecatedCount") ? e.get("deprecatedCount").asInt() : 1;
        String message = e.has("message") ? text(e, "message") : text(e, "note");
        String source = text(e.path("source"), "component");
        if (source == null) {
            source = text(e, "reportingComponent") != null ? text(e, "reportingComponent") : text(e, "reportingController");
        }
        return new EventView(text(meta, "namespace"), name, uid, PodParser.resourceVersion(meta, "event " + name),
                text(e, "type"), text(e, "reason"), message, Math.max(count, 1), created, first != null ? first : last,
                last, text(about, "kind"), text(about, "name"),
                text(about, "namespace") != null ? text(about, "namespace") : text(meta, "namespace"),
                text(about, "fieldPath"), source);
    }
}
