package io.jobmon.events.k8s;

import static io.jobmon.events.k8s.Tokens.arrayOrNull;
import static io.jobmon.events.k8s.Tokens.expectArray;
import static io.jobmon.events.k8s.Tokens.expectObject;
import static io.jobmon.events.k8s.Tokens.integer;
import static io.jobmon.events.k8s.Tokens.strict;
import static io.jobmon.events.k8s.Tokens.text;
import static io.jobmon.events.k8s.Tokens.time;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a Pod or an Event object straight from a JSON parser into what {@link PodParser} and {@link EventParser}
 * take from its tree, without building the tree: the fields they read are decoded, everything else is skipped.
 * It gives up (a {@link Bail}) on anything it does not read exactly as they do — a value of an odd type, a field
 * twice, an object without identity — and the caller then decodes the record the general way, which also names
 * what is wrong with an invalid one. {@code RecordDecoderTest} checks both ways agree.
 */
public final class ObjectReader {

    /** Not read here: decode the record the general way. */
    public static final class Bail extends Exception {
        public static final Bail INSTANCE = new Bail();

        private Bail() {
            super(null, null, false, false);
        }
    }

    /** The fields of an object read so far, as bits: a second one bails. */
    static class Seen {
        long seen;

        final void once(int bit) throws Bail {
            if ((seen & (1L << bit)) != 0) {
                throw Bail.INSTANCE;
            }
            seen |= 1L << bit;
        }
    }

    /** The fields of a Pod and of an Event (their top-level names do not overlap), as read. */
    public static final class Fields extends Seen {
        String kind;
        boolean kindSeen;
        // metadata
        String name, namespace, uid, resourceVersion, jobLabel, ownerJob;
        Instant createdAt, deletionTimestamp;
        // pod
        String phase, podReason, podMessage, nodeName, restartPolicy;
        List<PodView.Condition> conditions = new ArrayList<>(6);
        List<ContainerView> initContainers = new ArrayList<>(0);
        List<ContainerView> containers = new ArrayList<>(2);
        // event
        About involved, regarding;
        boolean hasMessage;
        String type, reason, message, note, sourceComponent, reportingComponent, reportingController;
        Integer count, deprecatedCount, seriesCount;
        Instant firstTimestamp, deprecatedFirstTimestamp, eventTime, lastTimestamp, deprecatedLastTimestamp,
                seriesLast;
        boolean ownerJobSeen;

        public String kind() {
            return kind;
        }

        /** {@code metadata.name} as {@code K8sRawObject.validate} wants it: present and not empty here. */
        public boolean named() {
            return name != null;
        }

        /** The pod, as {@link PodParser#parse} reads it. */
        public PodView pod(boolean deleted) throws Bail {
            if (uid == null || resourceVersion == null) {
                throw Bail.INSTANCE;
            }
            List<ContainerView> all = new ArrayList<>(initContainers.size() + containers.size());
            all.addAll(initContainers);
            all.addAll(containers);
            return new PodView(namespace, name, uid, jobLabel, ownerJob, number(resourceVersion), deleted, createdAt,
                    deletionTimestamp, phase, podReason, podMessage, nodeName, restartPolicy, conditions, all);
        }

        /** The event, as {@link EventParser#parse} reads it. */
        public EventView event() throws Bail {
            About about = involved != null ? involved : regarding;
            if (uid == null || resourceVersion == null || about == null || about.kind == null || about.name == null) {
                throw Bail.INSTANCE;
            }
            Instant first = K8sTime.first(firstTimestamp, deprecatedFirstTimestamp, eventTime);
            Instant last = K8sTime.first(seriesLast, lastTimestamp, deprecatedLastTimestamp, eventTime, first);
            Instant created = K8sTime.first(createdAt, first, last);
            if (last == null || created == null) {
                throw Bail.INSTANCE;
            }
            int n = seriesCount != null ? seriesCount : count != null ? count : deprecatedCount != null ? deprecatedCount : 1;
            String source = sourceComponent != null ? sourceComponent
                    : reportingComponent != null ? reportingComponent : reportingController;
            return new EventView(namespace, name, uid, number(resourceVersion), type, reason, hasMessage ? message : note,
                    Math.max(n, 1), created, first != null ? first : last, last, about.kind, about.name,
                    about.namespace != null ? about.namespace : namespace, about.fieldPath, source);
        }
    }

    /** {@code involvedObject} or {@code regarding}. */
    static final class About {
        String kind, name, namespace, fieldPath;
    }

    private ObjectReader() {
    }

    private static long number(String rv) throws Bail {
        try {
            return Long.parseLong(rv);
        } catch (NumberFormatException e) {
            throw Bail.INSTANCE;
        }
    }

    /** Reads the object whose START_OBJECT the parser is at; leaves it at its END_OBJECT. */
    public static Fields read(JsonParser p) throws IOException, Bail {
        Fields f = new Fields();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken t = p.nextToken();
            switch (field) {
                case "kind" -> {
                    f.once(0);
                    f.kindSeen = true;
                    f.kind = t == JsonToken.VALUE_NULL ? null : strict(p, t);
                }
                case "metadata" -> {
                    f.once(1);
                    metadata(p, t, f);
                }
                case "spec" -> {
                    f.once(2);
                    spec(p, t, f);
                }
                case "status" -> {
                    f.once(3);
                    status(p, t, f);
                }
                case "involvedObject" -> {
                    f.once(4);
                    f.involved = about(p, t);
                }
                case "regarding" -> {
                    f.once(5);
                    f.regarding = about(p, t);
                }
                case "series" -> {
                    f.once(6);
                    series(p, t, f);
                }
                case "firstTimestamp" -> f.firstTimestamp = time(p, t, f, 7);
                case "deprecatedFirstTimestamp" -> f.deprecatedFirstTimestamp = time(p, t, f, 8);
                case "eventTime" -> f.eventTime = time(p, t, f, 9);
                case "lastTimestamp" -> f.lastTimestamp = time(p, t, f, 10);
                case "deprecatedLastTimestamp" -> f.deprecatedLastTimestamp = time(p, t, f, 11);
                case "count" -> f.count = integer(p, t, f, 12);
                case "deprecatedCount" -> f.deprecatedCount = integer(p, t, f, 13);
                case "message" -> {
                    f.once(14);
                    f.hasMessage = true;
                    f.message = text(p, t);
                }
                case "note" -> f.note = text(p, t, f, 15);
                case "source" -> {
                    f.once(16);
                    expectObject(t);
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String s = p.currentName();
                        JsonToken v = p.nextToken();
                        if (s.equals("component")) {
                            f.once(17);
                            f.sourceComponent = text(p, v);
                        } else {
                            p.skipChildren();
                        }
                    }
                }
                case "reportingComponent" -> f.reportingComponent = text(p, t, f, 18);
                case "reportingController" -> f.reportingController = text(p, t, f, 19);
                case "type" -> f.type = text(p, t, f, 20);
                case "reason" -> f.reason = text(p, t, f, 21);
                default -> p.skipChildren();
            }
        }
        return f;
    }

    private static void metadata(JsonParser p, JsonToken t, Fields f) throws IOException, Bail {
        expectObject(t);
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken v = p.nextToken();
            switch (field) {
                case "name" -> f.name = text(p, v, f, 30);
                case "namespace" -> f.namespace = text(p, v, f, 31);
                case "uid" -> f.uid = text(p, v, f, 32);
                case "resourceVersion" -> f.resourceVersion = text(p, v, f, 33);
                case "creationTimestamp" -> f.createdAt = time(p, v, f, 34);
                case "deletionTimestamp" -> f.deletionTimestamp = time(p, v, f, 35);
                case "labels" -> {
                    f.once(36);
                    expectObject(v);
                    int label = 0;
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String l = p.currentName();
                        JsonToken lv = p.nextToken();
                        if (l.equals(PodParser.JOB_LABEL)) {
                            if (label++ > 0) {
                                throw Bail.INSTANCE;
                            }
                            f.jobLabel = text(p, lv);
                        } else {
                            p.skipChildren();
                        }
                    }
                }
                case "ownerReferences" -> {
                    f.once(37);
                    expectArray(v);
                    while (p.nextToken() != JsonToken.END_ARRAY) {
                        About ref = about(p, p.currentToken());
                        if (!f.ownerJobSeen && "Job".equals(ref.kind)) {
                            f.ownerJobSeen = true; // the first Job reference, as PodParser
                            f.ownerJob = ref.name;
                        }
                    }
                }
                default -> p.skipChildren();
            }
        }
    }

    private static void spec(JsonParser p, JsonToken t, Fields f) throws IOException, Bail {
        expectObject(t);
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken v = p.nextToken();
            switch (field) {
                case "nodeName" -> f.nodeName = text(p, v, f, 40);
                case "restartPolicy" -> f.restartPolicy = text(p, v, f, 41);
                default -> p.skipChildren();
            }
        }
    }

    private static void status(JsonParser p, JsonToken t, Fields f) throws IOException, Bail {
        expectObject(t);
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken v = p.nextToken();
            switch (field) {
                case "phase" -> f.phase = text(p, v, f, 42);
                case "reason" -> f.podReason = text(p, v, f, 43);
                case "message" -> f.podMessage = text(p, v, f, 44);
                case "conditions" -> {
                    f.once(45);
                    if (arrayOrNull(v)) {
                        while (p.nextToken() != JsonToken.END_ARRAY) {
                            f.conditions.add(ContainerStatusReader.condition(p, p.currentToken()));
                        }
                    }
                }
                case "initContainerStatuses" -> {
                    f.once(46);
                    if (arrayOrNull(v)) {
                        while (p.nextToken() != JsonToken.END_ARRAY) {
                            f.initContainers.add(ContainerStatusReader.container(p, p.currentToken(), true));
                        }
                    }
                }
                case "containerStatuses" -> {
                    f.once(47);
                    if (arrayOrNull(v)) {
                        while (p.nextToken() != JsonToken.END_ARRAY) {
                            f.containers.add(ContainerStatusReader.container(p, p.currentToken(), false));
                        }
                    }
                }
                default -> p.skipChildren();
            }
        }
    }

    private static void series(JsonParser p, JsonToken t, Fields f) throws IOException, Bail {
        if (t == JsonToken.VALUE_NULL) {
            return;
        }
        expectObject(t);
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken v = p.nextToken();
            switch (field) {
                case "count" -> f.seriesCount = integer(p, v, f, 50);
                case "lastObservedTime" -> f.seriesLast = time(p, v, f, 51);
                default -> p.skipChildren();
            }
        }
    }

    private static About about(JsonParser p, JsonToken t) throws IOException, Bail {
        expectObject(t);
        About a = new About();
        Seen seen = new Seen();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken v = p.nextToken();
            switch (field) {
                case "kind" -> a.kind = text(p, v, seen, 0);
                case "name" -> a.name = text(p, v, seen, 1);
                case "namespace" -> a.namespace = text(p, v, seen, 2);
                case "fieldPath" -> a.fieldPath = text(p, v, seen, 3);
                default -> p.skipChildren();
            }
        }
        return a;
    }
}
