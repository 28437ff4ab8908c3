package io.jobmon.metrics.ingest;

import io.jobmon.contracts.events.MetricSamples;
import io.jobmon.metrics.store.SeriesLabels;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Samples to series: the points of each name and label set gathered (in arrival order), labels sorted by name as
 * jobmon's producers write them. Scrapes and records of the first {@code samples} form come this way.
 */
public final class SeriesBuilder {

    private SeriesBuilder() {
    }

    /** A series being filled. */
    private static final class Open {
        final String name;
        final Map<String, String> labels;
        long[] t = new long[2];
        double[] v = new double[2];
        int n;

        Open(String name, Map<String, String> labels) {
            this.name = name;
            this.labels = labels;
        }

        void add(long time, double value) {
            if (n == t.length) {
                t = Arrays.copyOf(t, n * 2);
                v = Arrays.copyOf(v, n * 2);
            }
            t[n] = time;
            v[n++] = value;
        }

        MetricSamples.Series build() {
            return new MetricSamples.Series(name, labels, n == t.length ? t : Arrays.copyOf(t, n),
                    n == v.length ? v : Arrays.copyOf(v, n));
        }
    }

    public static List<MetricSamples.Series> of(List<MetricSamples.Sample> samples) {
        Map<Map.Entry<String, Map<String, String>>, Open> open = new LinkedHashMap<>();
        for (MetricSamples.Sample s : samples) {
            open.computeIfAbsent(new AbstractMap.SimpleImmutableEntry<>(s.name(), s.labels()),
                    k -> new Open(s.name(), SeriesLabels.sorted(s.labels()))).add(s.timestampMs(), s.value());
        }
        List<MetricSamples.Series> out = new ArrayList<>(open.size());
        open.values().forEach(o -> out.add(o.build()));
        return out;
    }

    /** The series' points as samples (Xid detection reads samples). */
    public static List<MetricSamples.Sample> samples(MetricSamples.Series s) {
        List<MetricSamples.Sample> out = new ArrayList<>(s.size());
        for (int i = 0; i < s.size(); i++) {
            out.add(new MetricSamples.Sample(s.name(), s.labels(), s.timestampsMs()[i], s.values()[i]));
        }
        return out;
    }

    /**
     * Splits series into parts of at most {@code perPart} points (a long series is cut between its points).
     */
    public static List<List<MetricSamples.Series>> split(List<MetricSamples.Series> series, int perPart) {
        List<List<MetricSamples.Series>> parts = new ArrayList<>();
        List<MetricSamples.Series> part = new ArrayList<>();
        int room = perPart;
        for (MetricSamples.Series s : series) {
            int from = 0;
            while (from < s.size()) {
                int take = Math.min(room, s.size() - from);
                part.add(from == 0 && take == s.size() ? s : new MetricSamples.Series(s.name(), s.labels(),
                        Arrays.copyOfRange(s.timestampsMs(), from, from + take),
                        Arrays.copyOfRange(s.values(), from, from + take)));
                from += take;
                room -= take;
                if (room == 0) {
                    parts.add(part);
                    part = new ArrayList<>();
                    room = perPart;
                }
            }
        }
        if (!part.isEmpty()) {
            parts.add(part);
        }
        return parts;
    }

    public static int count(List<MetricSamples.Series> series) {
        int n = 0;
        for (MetricSamples.Series s : series) {
            n += s.size();
        }
        return n;
    }
}
