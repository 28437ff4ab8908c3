package io.jobmon.metrics.store;

import java.util.Map;
import java.util.TreeMap;

/**
 * How a sample's labels identify its series: the node it came from, the metric name and the labels sorted by
 * name ({@code node|name{a="1",b="2"}}), and the labels jobmon reads for attribution and grouping.
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

    public static String key(String node, String name, Map<String, String> labels) {
        StringBuilder b = new StringBuilder(64 + (labels == null ? 0 : labels.size() * 32));
        b.append(node).append('|').append(name).append('{');
        if (labels != null && !labels.isEmpty()) {
            // jobmon's producers write labels sorted by name: then no sorting here
            Map<String, String> sorted = labels instanceof TreeMap<String, String> || isSorted(labels) ? labels
                    : new TreeMap<>(labels);
            boolean first = true;
            for (Map.Entry<String, String> e : sorted.entrySet()) {
                if (e.getValue() == null || e.getValue().isEmpty()) {
                    continue; // an empty label is no label (Prometheus semantics)
                }
                if (!first) {
                    b.append(',');
                }
                first = false;
                b.append(e.getKey()).append("=\"").append(e.getValue()).append('"');
            }
        }
        return b.append('}').toString();
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
