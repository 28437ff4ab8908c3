package io.jobmon.metrics.query;

import io.jobmon.metrics.store.Resolution;
import io.jobmon.metrics.store.codec.Points;
import io.jobmon.metrics.store.codec.Rollups;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns attributed series into chart lines: each series into step buckets ({@link Buckets}), masked outside the
 * time it is the job's; the sources of a catalogue metric added up per GPU or node; then the GPUs or nodes of a
 * group combined with the aggregation.
 */
public final class ChartEngine {

    /** The stored data of the chart's series: raw points or rollups, by series id. */
    public record Data(Map<Long, Points> raw, Map<Long, Rollups> rollups) {
    }

    private ChartEngine() {
    }

    public static List<Chart.Series> lines(Catalogue.Entry entry, List<Attribution.Attributed> series, Data data,
            ResolutionChoice rc, long start, int n, Aggregation agg, GroupBy groupBy) {
        // entity (node/gpu/pod) → the sum of its sources, per bucket
        Map<String, double[]> entities = new LinkedHashMap<>();
        Map<String, Map<String, String>> groups = new LinkedHashMap<>();
        Map<String, Set<String>> methods = new LinkedHashMap<>();
        Map<String, Set<String>> cpus = new LinkedHashMap<>();
        boolean cpu = "cpu_util".equals(entry.special());
        for (Attribution.Attributed a : series) {
            Catalogue.Source source = sourceOf(entry, a);
            if (source == null) {
                continue;
            }
            double[] v = values(a, source, data, rc, start, n, agg);
            if (v == null) {
                continue;
            }
            mask(v, a.valid(), start, rc.stepMs());
            String gpu = entry.scope() == Catalogue.Scope.GPU ? a.series().gpu() : null;
            // a container metric adds up a pod's containers unless split by container
            String container = entry.scope() == Catalogue.Scope.CONTAINER && groupBy == GroupBy.CONTAINER
                    ? a.series().labels().get("container") : null;
            String entity = a.series().node() + "/" + gpu + "/" + a.pod() + "/" + container;
            double[] acc = entities.computeIfAbsent(entity, k -> Buckets.nan(n));
            for (int b = 0; b < n; b++) {
                if (!Double.isNaN(v[b])) {
                    double x = source.factor() * v[b];
                    acc[b] = Double.isNaN(acc[b]) ? x : acc[b] + x;
                }
            }
            // a job's GPU line names the pod that held the GPU (a node's own chart has no method and splits by GPU only)
            groups.put(entity, groupBy.labels(a.series().node(), gpu, a.pod(), a.series().labels(), a.method() != null));
            methods.computeIfAbsent(entity, k -> new HashSet<>()).add(a.method());
            if (cpu) {
                cpus.computeIfAbsent(entity, k -> new HashSet<>()).add(a.series().labels().getOrDefault("cpu", ""));
            }
        }
        if (cpu) {
            entities.forEach((entity, idle) -> {
                int count = Math.max(1, cpus.get(entity).size());
                for (int b = 0; b < n; b++) {
                    idle[b] = Double.isNaN(idle[b]) ? Double.NaN : Math.max(0, 100 * (1 - idle[b] / count));
                }
            });
        }
        Map<Map<String, String>, List<double[]>> byGroup = new LinkedHashMap<>();
        Map<Map<String, String>, Set<String>> groupMethods = new LinkedHashMap<>();
        entities.forEach((entity, v) -> {
            byGroup.computeIfAbsent(groups.get(entity), k -> new ArrayList<>()).add(v);
            groupMethods.computeIfAbsent(groups.get(entity), k -> new HashSet<>()).addAll(methods.get(entity));
        });
        List<Chart.Series> out = new ArrayList<>();
        byGroup.forEach((group, members) -> {
            double[] column = new double[members.size()];
            LinePoints points = new LinePoints(n);
            for (int b = 0; b < n; b++) {
                for (int m = 0; m < members.size(); m++) {
                    column[m] = members.get(m)[b];
                }
                double x = agg.combine(column, column.length);
                if (!Double.isNaN(x)) {
                    points.add(start + b * rc.stepMs(), round(x));
                }
            }
            Set<String> ms = groupMethods.get(group);
            String method = ms.contains(null) ? null : ms.size() == 1 ? ms.iterator().next() : "mixed";
            out.add(new Chart.Series(entry.name(), entry.unit(), group, method, points));
        });
        out.sort(ChartEngine::byGroup);
        return out;
    }

    /** Lines in a stable order: by pod, node, then GPU index as a number, then container. */
    static int byGroup(Chart.Series a, Chart.Series b) {
        for (String k : new String[] {"pod", "node"}) {
            int c = String.valueOf(a.group().get(k)).compareTo(String.valueOf(b.group().get(k)));
            if (c != 0) {
                return c;
            }
        }
        String ga = a.group().getOrDefault("gpu", "");
        String gb = b.group().getOrDefault("gpu", "");
        int c;
        try {
            c = Integer.compare(Integer.parseInt(ga), Integer.parseInt(gb));
        } catch (NumberFormatException e) {
            c = ga.compareTo(gb);
        }
        return c != 0 ? c : String.valueOf(a.group().get("container")).compareTo(String.valueOf(b.group().get("container")));
    }

    static double round(double x) {
        return Math.abs(x) >= 1e6 ? Math.rint(x) : Math.rint(x * 1000) / 1000;
    }

    static Catalogue.Source sourceOf(Catalogue.Entry entry, Attribution.Attributed a) {
        for (Catalogue.Source s : entry.sources()) {
            if (s.metric().equals(a.series().metric()) && s.filter().test(a.series().labels())) {
                return s;
            }
        }
        return null;
    }

    private static double[] values(Attribution.Attributed a, Catalogue.Source source, Data data, ResolutionChoice rc,
            long start, int n, Aggregation agg) {
        Catalogue.Transform tf = source.transform();
        if (tf == Catalogue.Transform.VALUE && a.series().counter()) {
            tf = Catalogue.Transform.VALUE; // a counter asked as a value (e.g. memory totals) stays a value
        }
        if (rc.source() == Resolution.RAW) {
            Points p = data.raw().get(a.series().id());
            return p == null ? null : Buckets.ofRaw(p, start, rc.stepMs(), n, tf, agg);
        }
        Rollups r = data.rollups().get(a.series().id());
        return r == null ? null : Buckets.ofRollups(r, start, rc.stepMs(), n, tf, agg);
    }

    /** NaN for the buckets outside the ranges the series is the job's (null: all of them). */
    static void mask(double[] v, List<long[]> valid, long start, long step) {
        if (valid == null) {
            return;
        }
        for (int b = 0; b < v.length; b++) {
            long t = start + b * step;
            boolean in = false;
            for (long[] r : valid) {
                if (t + step > r[0] && t < r[1]) {
                    in = true;
                    break;
                }
            }
            if (!in) {
                v[b] = Double.NaN;
            }
        }
    }
}
