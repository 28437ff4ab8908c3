package io.jobmon.sim.control;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.jobmon.sim.clock.SimClock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records core/v1 Events as the components record them. The kubelet and the controllers use client-go's legacy
 * recorder: {@code source}, {@code firstTimestamp}/{@code lastTimestamp}, {@code count}, and a repeat of the same
 * event (same object, type, reason, message, source) within ten minutes raises the count of the first one. The
 * scheduler uses the events.k8s.io/v1 recorder: {@code eventTime}, {@code action}, {@code reportingComponent}, no
 * source, and repeats go into {@code series}. Events are named {@code <object>.<UnixNano in hex>}; events about
 * cluster-scoped objects (nodes) live in {@code default}. Events older than the TTL are deleted, as the API server's
 * {@code --event-ttl} does.
 */
public final class EventRecorder {

    private static final Logger LOG = LoggerFactory.getLogger(EventRecorder.class);
    private static final Duration REPEAT_WINDOW = Duration.ofMinutes(10);
    private static final DateTimeFormatter MICRO = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSX")
            .withZone(java.time.ZoneOffset.UTC);

    /** What an event is about (involvedObject), with the container's field path for container events. */
    public record Ref(String kind, String apiVersion, String namespace, String name, String uid, String resourceVersion,
            String fieldPath) {

        public static Ref of(HasMetadata o) {
            return new Ref(o.getKind(), o.getApiVersion(), o.getMetadata().getNamespace(), o.getMetadata().getName(),
                    o.getMetadata().getUid(), o.getMetadata().getResourceVersion(), null);
        }

        public Ref container(String name) {
            return new Ref(kind, apiVersion, namespace, name(), uid, resourceVersion, "spec.containers{" + name + "}");
        }

        ObjectReference reference() {
            return new ObjectReferenceBuilder().withKind(kind).withApiVersion(apiVersion).withNamespace(namespace)
                    .withName(name).withUid(uid).withResourceVersion(resourceVersion).withFieldPath(fieldPath).build();
        }
    }

    private record Recorded(String namespace, String name, int count, Instant first, Instant last) {
    }

    private final KubernetesClient client;
    private final SimClock clock;
    private final String controlPlaneHost;
    /** Recorded events by their aggregation key, oldest first. */
    private final Map<String, Recorded> recorded = new LinkedHashMap<>();
    private long lastNanos;

    public EventRecorder(KubernetesClient client, SimClock clock, String controlPlaneHost) {
        this.client = client;
        this.clock = clock;
        this.controlPlaneHost = controlPlaneHost;
    }

    /** An event of the legacy recorder (kubelet, job-controller, node-controller, ...). */
    public void record(Ref about, String type, String reason, String message, String component, String host) {
        Instant now = clock.now();
        String key = String.join("\u0000", component, String.valueOf(host), about.kind(), String.valueOf(about.namespace()),
                about.name(), String.valueOf(about.uid()), String.valueOf(about.fieldPath()), type, reason, message);
        Recorded r = recorded.get(key);
        if (r != null && Duration.between(r.last(), now).compareTo(REPEAT_WINDOW) < 0) {
            Recorded next = new Recorded(r.namespace(), r.name(), r.count() + 1, r.first(), now);
            if (patch(next, "{\"count\":" + next.count() + ",\"lastTimestamp\":\"" + seconds(now) + "\"}")) {
                recorded.put(key, next);
                return;
            }
        }
        String ns = namespaceOf(about);
        String name = about.name() + "." + Long.toHexString(nanos(now));
        Event e = new EventBuilder().withNewMetadata().withName(name).withNamespace(ns).endMetadata()
                .withInvolvedObject(about.reference()).withReason(reason).withMessage(message).withType(type)
                .withNewSource().withComponent(component).withHost(host).endSource()
                .withFirstTimestamp(seconds(now)).withLastTimestamp(seconds(now)).withCount(1)
                .withReportingComponent(component).withReportingInstance(host == null ? "" : host).build();
        if (create(e)) {
            recorded.remove(key);
            recorded.put(key, new Recorded(ns, name, 1, now, now));
        }
    }

    /** An event of the scheduler's events.k8s.io/v1 recorder ({@code related}: the preemptor, for Preempted). */
    public void scheduler(Ref about, Ref related, String type, String reason, String action, String message) {
        Instant now = clock.now();
        String key = String.join("\u0000", "default-scheduler", about.kind(), String.valueOf(about.namespace()),
                about.name(), String.valueOf(about.uid()), type, reason, action, message);
        Recorded r = recorded.get(key);
        if (r != null && Duration.between(r.last(), now).compareTo(REPEAT_WINDOW) < 0) {
            Recorded next = new Recorded(r.namespace(), r.name(), r.count() + 1, r.first(), now);
            if (patch(next, "{\"series\":{\"count\":" + next.count() + ",\"lastObservedTime\":\"" + micro(now) + "\"}}")) {
                recorded.put(key, next);
                return;
            }
        }
        String ns = namespaceOf(about);
        String name = about.name() + "." + Long.toHexString(nanos(now));
        EventBuilder b = new EventBuilder().withNewMetadata().withName(name).withNamespace(ns).endMetadata()
                .withInvolvedObject(about.reference()).withReason(reason).withMessage(message).withType(type)
                .withEventTime(new MicroTime(micro(now))).withAction(action)
                .withReportingComponent("default-scheduler")
                .withReportingInstance("default-scheduler-" + controlPlaneHost).withNewSource().endSource();
        if (related != null) {
            b.withRelated(related.reference());
        }
        if (create(b.build())) {
            recorded.remove(key);
            recorded.put(key, new Recorded(ns, name, 1, now, now));
        }
    }

    /** Deletes the events last seen longer than {@code ttl} ago. */
    public void expire(Duration ttl) {
        Instant cut = clock.now().minus(ttl);
        for (Iterator<Recorded> it = recorded.values().iterator(); it.hasNext();) {
            Recorded r = it.next();
            if (r.last().isBefore(cut)) {
                try {
                    client.v1().events().inNamespace(r.namespace()).withName(r.name()).delete();
                } catch (KubernetesClientException e) {
                    LOG.debug("event {}/{} not deleted: {}", r.namespace(), r.name(), e.getMessage());
                }
                it.remove();
            }
        }
    }

    private boolean create(Event e) {
        try {
            client.v1().events().inNamespace(e.getMetadata().getNamespace()).resource(e).create();
            return true;
        } catch (KubernetesClientException ex) {
            LOG.warn("event {} not recorded: {}", e.getMetadata().getName(), ex.getMessage());
            return false;
        }
    }

    private boolean patch(Recorded r, String mergePatch) {
        try {
            return client.v1().events().inNamespace(r.namespace()).withName(r.name())
                    .patch(PatchContext.of(PatchType.JSON_MERGE), mergePatch) != null;
        } catch (KubernetesClientException e) {
            return false;
        }
    }

    private static String namespaceOf(Ref about) {
        return about.namespace() == null || about.namespace().isEmpty() ? "default" : about.namespace();
    }

    /** UnixNano of the time, made unique among this recorder's names (two events in one nanosecond). */
    private long nanos(Instant t) {
        long n = t.getEpochSecond() * 1_000_000_000L + t.getNano();
        lastNanos = Math.max(n, lastNanos + 1);
        return lastNanos;
    }

    public static String seconds(Instant t) {
        return t.truncatedTo(ChronoUnit.SECONDS).toString();
    }

    public static String micro(Instant t) {
        return MICRO.format(t.truncatedTo(ChronoUnit.MICROS));
    }
}
