package io.jobmon.sim.telemetry;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Metric series of a replayed evidence bundle, served by a node's exporters with their own timestamps (the text
 * format's optional timestamp, in ms): a scraper that honours timestamps (Prometheus' default) stores the bundle's
 * series at their times. A scrape gets every sample that is due (its time has come) and was not served yet, so a
 * bundle whose window ends now is delivered by the first scrape, as an exporter catching up after a gap would; a
 * series is exposed until its samples run out. (A bundle of 30 minutes at 15 s would take 30 minutes at one sample
 * per scrape.) Several samples of one series in one exposition, each with its own timestamp, in time order: Prometheus
 * accepts them (prometheus/prometheus#14685, "Scraping: allow multiple samples on same series", 2.53.2 and 2.54),
 * and so does jobmon's scraper.
 */
public final class ReplaySeries {

    /** One series: name, labels, samples (time, value) in time order. */
    public record Series(String name, Map<String, String> labels, List<Instant> times, List<Double> values) {
    }

    private static final class Cursor {
        final Series series;
        final String job;
        int next;

        Cursor(Series s, String job) {
            series = s;
            this.job = job;
        }
    }

    private final Map<String, List<Cursor>> dcgm = new ConcurrentHashMap<>();
    private final Map<String, List<Cursor>> node = new ConcurrentHashMap<>();
    private final Map<String, List<Cursor>> cadvisor = new ConcurrentHashMap<>();

    /**
     * Adds a series to the node's endpoint: DCGM_* to its dcgm-exporter, container_* to its kubelet's cAdvisor, the
     * others to its node_exporter.
     */
    public void add(String nodeName, Series s) {
        add(nodeName, s, null);
    }

    /** The same, for the replay of a job (see {@link #pending(String)}). */
    public synchronized void add(String nodeName, Series s, String job) {
        (s.name().startsWith("DCGM_") ? dcgm : s.name().startsWith("container_") ? cadvisor : node).computeIfAbsent(nodeName, k -> new ArrayList<>())
                .add(new Cursor(s, job));
    }

    /** Samples not served yet, over every node. */
    public synchronized int pending() {
        return pending(null);
    }

    /** Samples of a job's replay not served yet (every replay's when {@code job} is null). */
    public synchronized int pending(String job) {
        int n = 0;
        for (Map<String, List<Cursor>> m : List.of(dcgm, node, cadvisor)) {
            for (List<Cursor> l : m.values()) {
                for (Cursor c : l) {
                    if (job == null || job.equals(c.job)) {
                        n += c.series.times().size() - c.next;
                    }
                }
            }
        }
        return n;
    }

    /** The node's dcgm series due at {@code now} and not served yet, in the text format (empty when none). */
    synchronized String nextDcgm(String nodeName, Instant now) {
        return next(dcgm.get(nodeName), true, now);
    }

    /** The node's other series due at {@code now} and not served yet. */
    synchronized String nextNode(String nodeName, Instant now) {
        return next(node.get(nodeName), false, now);
    }

    /** The node's cAdvisor series due at {@code now} and not served yet. */
    synchronized String nextCadvisor(String nodeName, Instant now) {
        return next(cadvisor.get(nodeName), false, now);
    }

    private static String next(List<Cursor> cursors, boolean dcgm, Instant now) {
        if (cursors == null || cursors.isEmpty()) {
            return "";
        }
        Map<String, List<String>> byName = new TreeMap<>();
        for (Cursor c : cursors) {
            while (c.next < c.series.times().size() && !c.series.times().get(c.next).isAfter(now)) {
                StringBuilder line = new StringBuilder(c.series.name()).append('{');
                boolean first = true;
                for (Map.Entry<String, String> l : c.series.labels().entrySet()) {
                    line.append(first ? "" : ",").append(l.getKey()).append("=\"").append(Exposition.escape(l.getValue()))
                            .append('"');
                    first = false;
                }
                line.append("} ").append(Exposition.goFloat(c.series.values().get(c.next))).append(' ')
                        .append(c.series.times().get(c.next).toEpochMilli());
                c.next++;
                byName.computeIfAbsent(c.series.name(), k -> new ArrayList<>()).add(line.toString());
            }
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
