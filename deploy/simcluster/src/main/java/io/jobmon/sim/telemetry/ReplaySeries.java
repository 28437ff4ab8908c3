package io.jobmon.sim.telemetry;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Metric series of a replayed evidence bundle, served by a node's exporters one sample per scrape, each with its own
 * timestamp (the text format's optional timestamp, in ms): a scraper that honours timestamps (Prometheus' default)
 * stores the bundle's series at their times. A series is exposed until its samples run out.
 */
public final class ReplaySeries {

    /** One series: name, labels, samples (time, value) in time order. */
    public record Series(String name, Map<String, String> labels, List<Instant> times, List<Double> values) {
    }

    private static final class Cursor {
        final Series series;
        int next;

        Cursor(Series s) {
            series = s;
        }
    }

    private final Map<String, List<Cursor>> dcgm = new ConcurrentHashMap<>();
    private final Map<String, List<Cursor>> node = new ConcurrentHashMap<>();

    /** Adds a series to the node's endpoint: DCGM_* to its dcgm-exporter, the others to its node_exporter. */
    public void add(String nodeName, Series s) {
        (s.name().startsWith("DCGM_") ? dcgm : node).computeIfAbsent(nodeName, k -> new ArrayList<>()).add(new Cursor(s));
    }

    /** Samples not served yet, over every node. */
    public synchronized int pending() {
        int n = 0;
        for (Map<String, List<Cursor>> m : List.of(dcgm, node)) {
            for (List<Cursor> l : m.values()) {
                for (Cursor c : l) {
                    n += c.series.times().size() - c.next;
                }
            }
        }
        return n;
    }

    synchronized String nextDcgm(String nodeName) {
        return next(dcgm.get(nodeName), true);
    }

    synchronized String nextNode(String nodeName) {
        return next(node.get(nodeName), false);
    }

    private static String next(List<Cursor> cursors, boolean dcgm) {
        if (cursors == null || cursors.isEmpty()) {
            return "";
        }
        Map<String, List<String>> byName = new TreeMap<>();
        for (Cursor c : cursors) {
            if (c.next >= c.series.times().size()) {
                continue;
            }
            StringBuilder line = new StringBuilder(c.series.name()).append('{');
            boolean first = true;
            for (Map.Entry<String, String> l : c.series.labels().entrySet()) {
                line.append(first ? "" : ",").append(l.getKey()).append("=\"").append(Exposition.escape(l.getValue())).append('"');
                first = false;
            }
            line.append("} ").append(Exposition.goFloat(c.series.values().get(c.next))).append(' ')
                    .append(c.series.times().get(c.next).toEpochMilli());
            c.next++;
            byName.computeIfAbsent(c.series.name(), k -> new ArrayList<>()).add(line.toString());
        }
        StringBuilder out = new StringBuilder();
        byName.forEach((name, lines) -> {
            DcgmCounters.Counter counter = dcgm ? DcgmCounters.of(name) : null;
            if (counter != null) {
                out.append("# HELP ").append(name).append(' ').append(counter.help()).append('\n');
                out.append("# TYPE ").append(name).append(' ').append(counter.type()).append('\n');
            }
            lines.forEach(l -> out.append(l).append('\n'));
        });
        return out.toString();
    }
}
