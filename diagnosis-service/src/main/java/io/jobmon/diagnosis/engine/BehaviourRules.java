package io.jobmon.diagnosis.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Behaviour of a job that runs: clock throttling (reasons bitmask, temperature, clocks, falling
 * speed), data-loading bottleneck (saw-tooth utilisation, data time in the progress lines, or the
 * frameworks' own "the data loader is too slow" hints with starved GPUs) and a real slowdown against
 * the job's own baseline.
 */
final class BehaviourRules {

    /** Marker of the frameworks' data-loader hints (Lightning's few-workers warning, MindSpore's slow generator). */
    static final String DATA_HINT = "data-hint";
    /** Mean GPU utilisation below this, with a data-loader hint, means the GPUs wait for input. */
    private static final double STARVED_UTIL = 50;
    /** The hint repeated this often through the window says so on its own (no metrics needed). */
    private static final int REPEATED_HINT = 3;

    private BehaviourRules() {
    }

    static void collect(MetricReport metrics, SpeedReport speed, EngineSettings s, PatternCatalogue catalogue,
                        EvidenceBundle bundle, MatchSet matches, Map<Category, Candidate> out) {
        boolean speedFalling = speed.hasRates() && speed.baselineRate() > 0
                && speed.recentRate() < 0.85 * speed.baselineRate();
        thermal(metrics, speedFalling, s, catalogue, out);
        dataLoading(metrics, speed, catalogue, bundle, matches, out);
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
            String reasons = reasons(t.mask(), false);
            String reasonsZh = reasons(t.mask(), true);
            String since = t.firstThermal() == null ? "" : " from " + Fmt.clock(t.firstThermal());
            String temp = Double.isNaN(t.maxTemp()) ? "" : ", max temperature " + Fmt.num(t.maxTemp()) + " C";
            String clock = Double.isNaN(t.clockRatio()) ? "" : ", SM clock " + Fmt.percent(t.clockRatio()) + " of its start";
            String sinceZh = t.firstThermal() == null ? "" : "自 " + Fmt.clock(t.firstThermal()) + " 起";
            String tempZh = Double.isNaN(t.maxTemp()) ? "" : "，最高温度 " + Fmt.num(t.maxTemp()) + " C";
            String clockZh = Double.isNaN(t.clockRatio()) ? "" : "，SM 时钟降至初始的 " + Fmt.percent(t.clockRatio());
            Localized detail = new Localized("throttle reasons " + reasons + since + temp + clock,
                    sinceZh + "降频原因 " + reasonsZh + tempZh + clockZh);
            Localized g = MetricLabels.gpu(t.gpu());
            Localized text = new Localized("throttle reasons " + reasons + " on " + g.en() + since + temp + clock,
                    g.zh() + " " + sinceZh + "降频原因 " + reasonsZh + tempZh + clockZh);
            out.computeIfAbsent(Category.GPU_THERMAL_THROTTLING, k -> new Candidate(catalogue.category(k)))
                    .support(w, true, t.firstThermal(), t.pod(), host(t.gpu()), detail)
                    .evidence(new BilingualEvidence(Evidence.METRIC, t.firstThermal(), t.pod(), text), w);
        }
    }

    private static void dataLoading(MetricReport metrics, SpeedReport speed, PatternCatalogue catalogue,
                                    EvidenceBundle bundle, MatchSet matches, Map<Category, Candidate> out) {
        List<MetricReport.Util> saw = new ArrayList<>();
        for (MetricReport.Util u : metrics.util()) {
            if (u.sawtooth()) {
                saw.add(u);
            }
        }
        boolean sawtooth = !saw.isEmpty() && saw.size() * 2 >= metrics.util().size();
        boolean dataBound = speed.dataWaitRatio() >= 0.5;
        List<Finding> hints = matches.markers(DATA_HINT);
        double meanUtil = metrics.util().stream().mapToDouble(MetricReport.Util::mean).average().orElse(Double.NaN);
        boolean starved = !hints.isEmpty() && !Double.isNaN(meanUtil) && meanUtil < STARVED_UTIL;
        boolean repeated = hints.size() >= REPEATED_HINT && (Double.isNaN(meanUtil) || meanUtil < STARVED_UTIL);
        if (!sawtooth && !dataBound && !starved && !repeated) {
            return;
        }
        Candidate c = out.computeIfAbsent(Category.DATA_LOADING_BOTTLENECK, k -> new Candidate(catalogue.category(k)));
        if (sawtooth) {
            MetricReport.Util u = saw.get(0);
            Localized g = MetricLabels.gpu(u.gpu());
            Localized text = new Localized(String.format(Locale.ROOT, "GPU utilisation saw-tooth on %d of %d GPUs (e.g. %s: "
                    + "%d busy/idle alternations, mean %.0f %%)", saw.size(), metrics.util().size(), g.en(), u.transitions(),
                    u.mean()), String.format(Locale.ROOT, "%d/%d 块 GPU 的利用率呈锯齿状（如 %s：忙闲交替 %d 次，平均 %.0f %%）",
                    saw.size(), metrics.util().size(), g.zh(), u.transitions(), u.mean()));
            c.support(dataBound || !hints.isEmpty() ? 0.85 : 0.7, true, u.first(), u.pod(), host(u.gpu()),
                            new Localized("saw-tooth GPU utilisation, mean " + Math.round(u.mean()) + " %",
                                    "GPU 利用率呈锯齿状，平均 " + Math.round(u.mean()) + " %"))
                    .evidence(new BilingualEvidence(Evidence.METRIC, u.first(), u.pod(), text), 0.7);
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
        if (starved || repeated) {
            Finding h = hints.get(hints.size() - 1);
            Localized detail = starved
                    ? new Localized(String.format(Locale.ROOT, "the framework warns that the data loader is too slow and the "
                    + "GPUs are only %.0f %% busy", meanUtil), String.format(Locale.ROOT, "框架提示数据加载过慢，GPU 平均利用率仅 %.0f %%",
                    meanUtil))
                    : new Localized("the framework warned " + hints.size() + " times that the input pipeline is too slow",
                    "框架 " + hints.size() + " 次提示输入数据流水线过慢");
            c.support(starved && sawtooth ? 0.85 : 0.7, true, h.time(), h.pod(), h.node(), detail)
                    .evidence(h.toEvidence(), 0.72);
            if (starved) {
                MetricReport.Util u = metrics.util().get(0);
                c.evidence(new BilingualEvidence(Evidence.METRIC, u.first(), u.pod(), new Localized(
                        String.format(Locale.ROOT, "mean GPU utilisation %.0f %% over %d GPUs", meanUtil, metrics.util().size()),
                        String.format(Locale.ROOT, "%d 块 GPU 平均利用率 %.0f %%", metrics.util().size(), meanUtil))), 0.7);
            }
        }
    }

    private static void slowdown(SpeedReport speed, PatternCatalogue catalogue, EvidenceBundle bundle,
                                 Map<Category, Candidate> out) {
        if (!speed.slowdown()) {
            return;
        }
        double ratio = speed.recentRate() / speed.baselineRate();
        String en = "real speed fell from " + Fmt.rate(speed.baselineRate()) + " to " + Fmt.rate(speed.recentRate())
                + " (" + Fmt.percent(ratio) + " of its baseline)"
                + (speed.slowSince() == null ? "" : " since about " + Fmt.clock(speed.slowSince()));
        String zh = "实际速度从 " + Fmt.rate(speed.baselineRate()) + " 降到 " + Fmt.rate(speed.recentRate())
                + "（为基线的 " + Fmt.percent(ratio) + "）"
                + (speed.slowSince() == null ? "" : "，约自 " + Fmt.clock(speed.slowSince()) + " 起");
        Localized text = new Localized(en, zh);
        ProgressPoint last = speed.lastPoint();
        out.computeIfAbsent(Category.TRAINING_SLOWDOWN, k -> new Candidate(catalogue.category(k)))
                .support(ratio < 0.5 ? 0.85 : 0.75, true, speed.slowSince(), last.pod(), null, text)
                .evidence(new BilingualEvidence(Evidence.LOG, speed.slowSince(), last.pod(), text), 0.8)
                .evidence(logEvidence(bundle, speed.firstPoint()), 0.7)
                .evidence(logEvidence(bundle, last), 0.75);
    }

    static BilingualEvidence logEvidence(EvidenceBundle bundle, ProgressPoint p) {
        EvidenceBundle.LogLine l = bundle.logs().get(p.logIndex());
        return BilingualEvidence.quote(Evidence.LOG, l.time(), l.pod(), SourceTexts.clip(l.line(), PatternMatcher.QUOTE_LIMIT));
    }

    /** The throttle reasons of a clocks-event bitmask (DCGM_FI_DEV_CLOCK_THROTTLE_REASONS), in English or Chinese. */
    static String reasons(long mask, boolean zh) {
        List<String> r = new ArrayList<>();
        if ((mask & 0x02) != 0 || (mask & 0x04) != 0) {
            r.add(zh ? "功耗上限" : "power cap");
        }
        if ((mask & 0x08) != 0) {
            r.add(zh ? "硬件降速" : "HW slowdown");
        }
        if ((mask & 0x20) != 0) {
            r.add(zh ? "软件温控" : "SW thermal");
        }
        if ((mask & 0x40) != 0) {
            r.add(zh ? "硬件温控" : "HW thermal");
        }
        if ((mask & 0x80) != 0) {
            r.add(zh ? "硬件功率制动" : "HW power brake");
        }
        return "0x" + Long.toHexString(mask) + (r.isEmpty() ? "" : zh ? "（" + String.join("、", r) + "）"
                : " (" + String.join(", ", r) + ")");
    }

    static String host(String gpu) {
        return MetricLabels.host(gpu);
    }
}
