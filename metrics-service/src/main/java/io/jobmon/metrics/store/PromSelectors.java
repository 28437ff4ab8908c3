package io.jobmon.metrics.store;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * PromQL selectors for what jobmon knows of a job (pods, nodes, series), and the engine's label sets as
 * {@link SeriesRef}s with a stable id: the 64-bit FNV-1a hash of the metric name and the sorted labels, so that the
 * chart engine above keys series by id as with the embedded store.
 */
public final class PromSelectors {

    public static final String NAME = "__name__";

    private PromSelectors() {
    }

    /** A PromQL string literal (double quotes, backslash escapes). */
    public static String quote(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                default -> b.append(c);
            }
        }
        return b.append('"').toString();
    }

    /** An RE2 alternation matching exactly these values (fully anchored by PromQL), as a string literal. */
    public static String anyOf(Collection<String> values) {
        StringBuilder b = new StringBuilder();
        for (String v : new TreeSet<>(values)) {
            if (b.length() > 0) {
                b.append('|');
            }
            for (int i = 0; i < v.length(); i++) {
                char c = v.charAt(i);
                if ("\\.+*?()|[]{}^$".indexOf(c) >= 0) {
                    b.append('\\');
                }
                b.append(c);
            }
        }
        return quote(b.toString());
    }

    /** {@code {__name__=~"a|b", label=~"x|y"}}; {@code values} must not be empty. */
    public static String selector(Collection<String> metrics, String label, Collection<String> values) {
        StringBuilder b = new StringBuilder("{").append(NAME);
        b.append(metrics.size() == 1 ? "=" + quote(metrics.iterator().next()) : "=~" + anyOf(metrics));
        if (label != null) {
            b.append(',').append(label).append(values.size() == 1 ? "=" + quote(values.iterator().next())
                    : "=~" + anyOf(values));
        }
        return b.append('}').toString();
    }

    /**
     * The selector of one metric's series: by node (the engine's node label) when all of them have one, else by pod
     * when all have one, else all the metric's series; the answer is narrowed to the wanted ids afterwards.
     */
    public static String of(String metric, List<SeriesRef> series, String nodeLabel) {
        List<String> nodes = new ArrayList<>();
        List<String> pods = new ArrayList<>();
        for (SeriesRef s : series) {
            nodes.add(SeriesLabels.get(s.labels(), nodeLabel));
            pods.add(s.pod());
        }
        if (!nodes.contains(null)) {
            return selector(List.of(metric), nodeLabel, nodes);
        }
        if (!pods.contains(null)) {
            return selector(List.of(metric), SeriesLabels.POD, pods);
        }
        return selector(List.of(metric), null, null);
    }

    /** A duration in milliseconds, as PromQL writes it. */
    public static String ms(long ms) {
        return ms + "ms";
    }

    /** The series' id: FNV-1a 64 of {@code metric} and the labels by name (without {@code __name__}), never 0. */
    public static long id(String metric, Map<String, String> labels) {
        long h = 0xcbf29ce484222325L;
        h = mix(h, metric);
        for (Map.Entry<String, String> e : (labels instanceof TreeMap ? labels : new TreeMap<>(labels)).entrySet()) {
            if (!NAME.equals(e.getKey()) && e.getValue() != null && !e.getValue().isEmpty()) {
                h = mix(mix(h, e.getKey()), e.getValue());
            }
        }
        return h == 0 ? 1 : h;
    }

    private static long mix(long h, String s) {
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        h ^= 0xff; // separator: ("ab","c") and ("a","bc") differ
        return h * 0x100000001b3L;
    }

    /**
     * A series as the query side sees it, from the engine's label set: the node from {@code nodeLabel}, else the
     * first of {@code fallbacks} present (a platform Prometheus scraping dcgm-exporter has {@code Hostname}).
     */
    public static SeriesRef ref(Map<String, String> all, String nodeLabel, List<String> fallbacks) {
        String metric = all.get(NAME);
        Map<String, String> labels = new LinkedHashMap<>();
        new TreeMap<>(all).forEach((k, v) -> {
            if (!NAME.equals(k) && v != null && !v.isEmpty()) {
                labels.put(k, v);
            }
        });
        String node = SeriesLabels.get(labels, nodeLabel);
        for (int i = 0; node == null && i < fallbacks.size(); i++) {
            node = SeriesLabels.get(labels, fallbacks.get(i));
        }
        return new SeriesRef(id(metric, labels), metric, node == null ? "" : node, MetricKinds.isCounter(metric),
                SeriesLabels.get(labels, SeriesLabels.GPU), SeriesLabels.get(labels, SeriesLabels.POD),
                SeriesLabels.get(labels, SeriesLabels.NAMESPACE), SeriesLabels.get(labels, SeriesLabels.CLUSTER),
                labels);
    }
}
