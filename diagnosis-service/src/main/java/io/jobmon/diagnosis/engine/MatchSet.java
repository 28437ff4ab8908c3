package io.jobmon.diagnosis.engine;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The result of a {@link PatternMatcher} scan, aggregated per pattern so memory stays bounded however
 * many lines match: count, first and last occurrence, distinct pods and a few samples.
 */
final class MatchSet {

    private static final int MAX_SAMPLES = 4;
    private static final int MAX_PODS = 512;
    private static final int MAX_MARKERS = 512;

    /** Aggregated matches of one pattern. */
    static final class Hits {
        final PatternCatalogue.PatternSpec pattern;
        int count;
        Finding first;
        Finding last;
        final Set<String> pods = new HashSet<>();
        final List<Finding> samples = new ArrayList<>(MAX_SAMPLES);
        /** The last occurrence per pod (key "" for findings without a pod). */
        final Map<String, Finding> lastByPod = new HashMap<>();
        /** Nodes named by occurrences that concern no pod. */
        final Set<String> podlessNodes = new HashSet<>();
        /** Some occurrence concerns a pod, or neither a pod nor a node. */
        boolean placedOnPod;

        Hits(PatternCatalogue.PatternSpec pattern) {
            this.pattern = pattern;
        }

        void add(Finding f) {
            count++;
            if (first == null || earlier(f, first)) {
                first = f;
            }
            if (last == null || !earlier(f, last)) {
                last = f;
            }
            boolean newPod = f.pod() != null && pods.size() < MAX_PODS && pods.add(f.pod());
            if (f.pod() != null || f.node() == null) {
                placedOnPod = true;
            } else if (podlessNodes.size() < MAX_PODS) {
                podlessNodes.add(f.node());
            }
            String podKey = f.pod() == null ? "" : f.pod();
            if (lastByPod.size() < MAX_PODS || lastByPod.containsKey(podKey)) {
                lastByPod.merge(podKey, f, (a, b) -> earlier(b, a) ? a : b);
            }
            if (samples.size() < MAX_SAMPLES && (samples.isEmpty() || newPod)) {
                samples.add(f);
            }
        }
    }

    private final Map<PatternCatalogue.PatternSpec, Hits> hits = new LinkedHashMap<>();
    private final Map<String, List<Finding>> markers = new HashMap<>();

    void add(Finding f) {
        if (f.pattern().category() != null) {
            hits.computeIfAbsent(f.pattern(), Hits::new).add(f);
        } else {
            List<Finding> list = markers.computeIfAbsent(f.pattern().marker(), k -> new ArrayList<>());
            if (list.size() < MAX_MARKERS) {
                list.add(f);
            }
        }
    }

    Collection<Hits> hits() {
        return hits.values();
    }

    /** Marker findings (e.g. {@code scheduled}, {@code sigterm}), at most a few hundred per marker. */
    List<Finding> markers(String marker) {
        return markers.getOrDefault(marker, List.of());
    }

    boolean hasMarker(String marker) {
        return markers.containsKey(marker);
    }

    /** Time order with unknown times last, then scan order. */
    static boolean earlier(Finding a, Finding b) {
        Instant ta = a.time();
        Instant tb = b.time();
        if (ta != null && tb != null && !ta.equals(tb)) {
            return ta.isBefore(tb);
        }
        if (ta == null && tb != null) {
            return false;
        }
        if (tb == null && ta != null) {
            return true;
        }
        return a.order() < b.order();
    }
}
