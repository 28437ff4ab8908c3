package io.jobmon.metrics.store;

import io.jobmon.contracts.events.MetricLabels;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * A series' identity in memory: its node, metric name and labels sorted by name (an empty label is no label, as in
 * Prometheus), hashed and compared field by field. The consumer finds a series' id by it for every series of every
 * record, so no text is built for that; {@link #text()} is the key as text (logs). The table finds a series by node,
 * metric and label set ({@link SeriesRepository}).
 */
public final class SeriesKey {

    private static final String[] NO_LABELS = {};

    private final String node;
    private final String name;
    /** Label names and values, alternating, by name. */
    private final String[] labels;
    private final int hash;

    private SeriesKey(String node, String name, String[] labels) {
        this.node = node;
        this.name = name;
        this.labels = labels;
        int h = 31 * node.hashCode() + name.hashCode();
        for (String s : labels) {
            h = 31 * h + s.hashCode();
        }
        this.hash = h;
    }

    public static SeriesKey of(String node, String name, Map<String, String> labels) {
        if (labels == null || labels.isEmpty()) {
            return new SeriesKey(node, name, NO_LABELS);
        }
        if (labels instanceof MetricLabels decoded && decoded.sortedPairs() != null) {
            return new SeriesKey(node, name, decoded.sortedPairs()); // a binary record's, already in this form
        }
        // jobmon's producers write labels sorted by name: then a copy in their order
        Map<String, String> sorted = SeriesLabels.isSorted(labels) ? labels : new TreeMap<>(labels);
        String[] pairs = new String[2 * sorted.size()];
        int n = 0;
        for (Map.Entry<String, String> e : sorted.entrySet()) {
            if (e.getValue() != null && !e.getValue().isEmpty()) {
                pairs[n++] = e.getKey();
                pairs[n++] = e.getValue();
            }
        }
        return new SeriesKey(node, name, n == pairs.length ? pairs : Arrays.copyOf(pairs, n));
    }

    /** {@code node|name{a="1",b="2"}}: the text whose MD5 digest is the series' {@code key_hash}. */
    public String text() {
        StringBuilder b = new StringBuilder(node.length() + name.length() + 3 + labels.length * 16);
        b.append(node).append('|').append(name).append('{');
        for (int i = 0; i < labels.length; i += 2) {
            if (i > 0) {
                b.append(',');
            }
            b.append(labels[i]).append("=\"").append(labels[i + 1]).append('"');
        }
        return b.append('}').toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SeriesKey k && hash == k.hash && name.equals(k.name) && node.equals(k.node)
                && Arrays.equals(labels, k.labels);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public String toString() {
        return text();
    }
}
