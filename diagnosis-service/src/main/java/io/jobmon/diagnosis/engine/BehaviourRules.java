package io.jobmon.diagnosis.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Behaviour of a job that runs: clock throttling (reasons bitmask, temperature, clocks, falling
 * speed), data-loading bottleneck (saw-tooth utilisation, data time in the progress lines) and a
 * real slowdown against the job's own baseline.
 */
final class BehaviourRules {

    private BehaviourRules() {
    }

    static void collect(MetricReport metrics, SpeedReport speed, EngineSettings s, PatternCatalogue catalogue,
                        EvidenceBundle bundle, Map<Category, Candidate> out) {
        boolean speedFalling = speed.hasRates() && speed.baselineRate() > 0
                && speed.recentRate() < 0.85 * speed.baselineRate();
        thermal(metrics, speedFalling, s, catalogue, out);
        dataLoading(metrics, speed, catalogue, bundle, out);
        slowdown(speed, catalogue, bundle, out);
    }

    private static void thermal(MetricReport metrics, boolean speedFalling, EngineSettings s,
                                PatternCatalogue catalogue, Map<Category, Candidate> out) {
        for (MetricReport.Throttle t : metrics.throttle()) {
            boolean hot = t.maxTemp() >= s.thermalTempC();
            boolean clocksDown = t.clockRatio() < 0.85;
            double w;
            if (t.thermalSamples() >= Math.max(4, t.samples() / 5)) {
                w = 0.65 + (hot ? 0.1 : 0) + (clocksDown || speedFalling ? 0.1 : 0);
            } else if (t.samples() == 0 && hot && t.tempRise() >= 10 && (clocksDown || speedFalling)) {
                w = 0.6;
            } else if (t.powerCapSamples() >= Math.max(4, t.samples() / 2) && speedFalling && clocksDown) {
                w = 0.65;
            } else {
                continue;
            }
            String since = t.firstThermal() == null ? "" : " from " + Fmt.clock(t.firstThermal());
            String temp = Double.isNaN(t.maxTemp()) ? "" : ", max temperature " + Fmt.num(t.maxTemp()) + " C";
            String clock = Double.isNaN(t.clockRatio()) ? "" : ", SM clock " + Fmt.percent(t.clockRatio()) + " of its start";
            String text = "throttle reasons " + reasons(t.mask()) + " on GPU " + t.gpu() + since + temp + clock;
            Localized detail = new Localized("throttle reasons " + reasons(t.mask()) + since + temp + clock,
                    (t.firstThermal() == null ? "" : "自 " + Fmt.clock(t.firstThermal()) + " 起") + "降频原因 "
                            + reasons(t.mask())
                            + (Double.isNaN(t.maxTemp()) ? "" : "，最高温度 " + Fmt.num(t.maxTemp()) + " C")
                            + (Double.isNaN(t.clockRatio()) ? "" : "，SM 时钟降至初始的 " + Fmt.percent(t.clockRatio())));
            out.computeIfAbsent(Category.GPU_THERMAL_THROTTLING, k -> new Candidate(catalogue.category(k)))
                    .support(w, true, t.firstThermal(), t.pod(), host(t.gpu()), detail)
                    .evidence(new Evidence(Evidence.METRIC, t.firstThermal(), t.pod(), text), w);
        }
    }

    private static void dataLoading(MetricReport metrics, SpeedReport speed, PatternCatalogue catalogue,
                                    EvidenceBundle bundle, Map<Category, Candidate> out) {
        List<MetricReport.Util> saw = new ArrayList<>();
        for (MetricReport.Util u : metrics.util()) {
            if (u.sawtooth()) {
                saw.add(u);
            }
        }
        boolean sawtooth = !saw.isEmpty() && saw.size() * 2 >= metrics.util().size();
        boolean dataBound = speed.dataWaitRatio() >= 0.5;
        if (!sawtooth && !dataBound) {
            return;
        }
        Candidate c = out.computeIfAbsent(Category.DATA_LOADING_BOTTLENECK, k -> new Candidate(catalogue.category(k)));
        if (sawtooth) {
            MetricReport.Util u = saw.get(0);
            String text = String.format(Locale.ROOT, "GPU utilisation saw-tooth on %d of %d GPUs (e.g. %s: %d busy/idle "
                    + "alternations, mean %.0f %%)", saw.size(), metrics.util().size(), u.gpu(), u.transitions(), u.mean());
            c.support(dataBound ? 0.85 : 0.7, true, u.first(), u.pod(), host(u.gpu()),
                            new Localized("saw-tooth GPU utilisation, mean " + Math.round(u.mean()) + " %",
                                    "GPU 利用率呈锯齿状，平均 " + Math.round(u.mean()) + " %"))
                    .evidence(new Evidence(Evidence.METRIC, u.first(), u.pod(), text), 0.7);
        }
        if (dataBound) {
            ProgressPoint p = speed.lastPoint();
            String share = Fmt.percent(speed.dataWaitRatio());
            c.support(sawtooth ? 0.85 : 0.7, true, p == null ? null : p.time(), p == null ? null : p.pod(), null,
                    new Localized("data loading takes " + share + " of each iteration",
                            "数据加载占每个迭代时间的 " + share));
            if (p != null) {
                c.evidence(logEvidence(bundle, p), 0.75);
            }
        }
    }

    private static void slowdown(SpeedReport speed, PatternCatalogue catalogue, EvidenceBundle bundle,
                                 Map<Category, Candidate> out) {
        if (!speed.slowdown()) {
            return;
        }
        double ratio = speed.recentRate() / speed.baselineRate();
        String text = "real speed fell from " + Fmt.rate(speed.baselineRate()) + " to " + Fmt.rate(speed.recentRate())
                + " (" + Fmt.percent(ratio) + " of its baseline)"
                + (speed.slowSince() == null ? "" : " since about " + Fmt.clock(speed.slowSince()));
        Localized detail = new Localized(text, "实际速度从 " + Fmt.rate(speed.baselineRate()) + " 降到 "
                + Fmt.rate(speed.recentRate()) + "（为基线的 " + Fmt.percent(ratio) + "）");
        ProgressPoint last = speed.lastPoint();
        out.computeIfAbsent(Category.TRAINING_SLOWDOWN, k -> new Candidate(catalogue.category(k)))
                .support(ratio < 0.5 ? 0.85 : 0.75, true, speed.slowSince(), last.pod(), null, detail)
                .evidence(new Evidence(Evidence.LOG, speed.slowSince(), last.pod(), text), 0.8)
                .evidence(logEvidence(bundle, speed.firstPoint()), 0.7)
                .evidence(logEvidence(bundle, last), 0.75);
    }

    static Evidence logEvidence(EvidenceBundle bundle, ProgressPoint p) {
        EvidenceBundle.LogLine l = bundle.logs().get(p.logIndex());
        return new Evidence(Evidence.LOG, l.time(), l.pod(), SourceTexts.clip(l.line(), PatternMatcher.QUOTE_LIMIT));
    }

    static String reasons(long mask) {
        List<String> r = new ArrayList<>();
        if ((mask & 0x02) != 0 || (mask & 0x04) != 0) {
            r.add("power cap");
        }
        if ((mask & 0x08) != 0) {
            r.add("HW slowdown");
        }
        if ((mask & 0x20) != 0) {
            r.add("SW thermal");
        }
        if ((mask & 0x40) != 0) {
            r.add("HW thermal");
        }
        if ((mask & 0x80) != 0) {
            r.add("HW power brake");
        }
        return "0x" + Long.toHexString(mask) + (r.isEmpty() ? "" : " (" + String.join(", ", r) + ")");
    }

    static String host(String gpu) {
        int slash = gpu.lastIndexOf('/');
        return slash > 0 ? gpu.substring(0, slash) : gpu;
    }
}
