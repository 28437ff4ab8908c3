package io.jobmon.metrics.store;

import java.util.Map;
import java.util.TreeMap;

/**
 * The labels jobmon reads for attribution and grouping, and their order (a series' identity: {@link SeriesKey}).
 */
public final class SeriesLabels {

    /** dcgm-exporter's GPU index; the Kubernetes labels its pod mapping adds. */
    public static final String GPU = "gpu";
    public static final String POD = "pod";
    public static final String NAMESPACE = "namespace";
    public static final String CONTAINER = "container";
    /** Set by the scraper from the target (or by a remote-writing Prometheus as an external label). */
    public static final String CLUSTER = "cluster";
    public static final String POOL = "pool";

    private SeriesLabels() {
    }

    /** Whether the map iterates its names in ascending order. */
    static boolean isSorted(Map<String, String> labels) {
        String prev = null;
        for (String k : labels.keySet()) {
            if (prev != null && prev.compareTo(k) >= 0) {
                return false;
            }
            prev = k;
        }
        return true;
    }

    /** The labels in name order, for producers (a {@link java.util.LinkedHashMap} keeps the order on the wire). */
    public static Map<String, String> sorted(Map<String, String> labels) {
        if (labels == null || isSorted(labels)) {
            return labels;
        }
        return new java.util.LinkedHashMap<>(new TreeMap<>(labels));
    }

    /** A label's value, null when absent or empty. */
    public static String get(Map<String, String> labels, String name) {
        if (labels == null) {
            return null;
        }
        String v = labels.get(name);
        return v == null || v.isEmpty() ? null : v;
    }
}
