package io.jobmon.events.watch;

import io.fabric8.kubernetes.api.model.Event;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Events about a pod or Job the watcher has not seen yet (the event informer may hear of a pod before the pod
 * informer): held until the object shows up, dropped after a while as not a job's.
 */
final class PendingEvents {

    private record Held(Event event, Instant until) {
    }

    private final Duration ttl;
    private final Clock clock;
    private final Map<String, List<Held>> byObject = new LinkedHashMap<>();

    PendingEvents(Duration ttl, Clock clock) {
        this.ttl = ttl;
        this.clock = clock;
    }

    static String key(String kind, String namespace, String name) {
        return kind + "/" + namespace + "/" + name;
    }

    synchronized void hold(String objectKey, Event e) {
        expire();
        byObject.computeIfAbsent(objectKey, k -> new ArrayList<>()).add(new Held(e, clock.instant().plus(ttl)));
    }

    /** The events that waited for this object, in arrival order. */
    synchronized List<Event> release(String objectKey) {
        List<Held> held = byObject.remove(objectKey);
        return held == null ? List.of() : held.stream().map(Held::event).toList();
    }

    synchronized int size() {
        expire();
        return byObject.values().stream().mapToInt(List::size).sum();
    }

    private void expire() {
        Instant now = clock.instant();
        for (Iterator<List<Held>> it = byObject.values().iterator(); it.hasNext();) {
            List<Held> list = it.next();
            list.removeIf(h -> h.until().isBefore(now));
            if (list.isEmpty()) {
                it.remove();
            }
        }
    }
}
