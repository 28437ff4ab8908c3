package io.jobmon.diagnosis.engine;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A hang: the step counter has not moved for longer than the hang threshold (default 10 minutes,
 * stretched to three typical progress intervals or three step times, so a model that needs minutes
 * per step is not called hung), most strongly when the GPUs sit idle all that time.
 */
final class HangDetector {

    private HangDetector() {
    }

    static void detect(JobContext ctx, SpeedReport speed, MetricReport metrics, EngineSettings s,
                       PatternCatalogue catalogue, EvidenceBundle bundle, Map<Category, Candidate> out) {
        Instant now = ctx.now();
        if (now == null || ctx.isSucceeded() || ctx.isPending() || "STOPPED".equals(ctx.status())) {
            return;
        }
        Duration threshold = threshold(s, speed);
        List<MetricReport.Util> live = new ArrayList<>();
        int idle = 0;
        int spinning = 0;
        for (MetricReport.Util u : metrics.util()) {
            if (u.last() == null || Duration.between(u.last(), now).toSeconds() > 180) {
                continue;
            }
            live.add(u);
            Duration need = threshold.multipliedBy(4).dividedBy(5);
            idle += u.idleSince() != null && Duration.between(u.idleSince(), u.last()).compareTo(need) >= 0 ? 1 : 0;
            spinning += u.busySince() != null && Duration.between(u.busySince(), u.last()).compareTo(need) >= 0 ? 1 : 0;
        }
        boolean gpusIdle = !live.isEmpty() && idle * 2 >= live.size();
        boolean gpusSpinning = !live.isEmpty() && spinning * 2 >= live.size();
        Instant activity = speed.lastAdvance() != null ? speed.lastAdvance() : ctx.lastLog(null);
        double w;
        if (activity != null) {
            if (Duration.between(activity, now).compareTo(threshold) < 0) {
                return;
            }
            boolean knownPace = speed.typicalInterval() != null || speed.stepSeconds() > 0;
            w = gpusIdle ? 0.9 : gpusSpinning ? 0.7 : live.isEmpty() && knownPace ? 0.65 : 0.4;
        } else {
            if (!gpusIdle || !ctx.isLive()) {
                return;
            }
            w = 0.6;
        }
        Instant since = activity;
        for (MetricReport.Util u : live) {
            since = since == null ? u.idleSince() : since;
        }
        Duration silent = Duration.between(since, now);
        String gpuState = gpusIdle ? "GPUs idle" : gpusSpinning ? "GPUs stuck at 100 %" : "";
        Localized detail = new Localized(
                "no progress for " + Fmt.minutes(silent) + " since " + Fmt.clock(since) + (gpuState.isEmpty() ? "" : ", " + gpuState),
                "自 " + Fmt.clock(since) + " 起 " + Fmt.minutesZh(silent) + "无训练进展"
                        + (gpusIdle ? "，GPU 空闲" : gpusSpinning ? "，GPU 利用率卡在 100 %" : ""));
        ProgressPoint last = speed.lastPoint();
        Candidate c = out.computeIfAbsent(Category.TRAINING_HANG, k -> new Candidate(catalogue.category(k)))
                .support(w, true, since, last == null ? null : last.pod(), null, detail);
        c.evidence(new BilingualEvidence(Evidence.LOG, since, last == null ? null : last.pod(), new Localized(
                "no training progress for " + Fmt.minutes(silent) + " (threshold " + Fmt.minutes(threshold) + ")",
                Fmt.minutesZh(silent) + "无训练进展（阈值 " + Fmt.minutesZh(threshold) + "）")), 0.85);
        if (last != null) {
            c.evidence(BehaviourRules.logEvidence(bundle, last), 0.8);
        }
        int quoted = 0;
        for (MetricReport.Util u : live) {
            Instant from = gpusIdle ? u.idleSince() : u.busySince();
            if (from != null && quoted++ < 2) {
                String level = gpusIdle ? "<= " + Fmt.num(s.idleUtilPercent()) : ">= 99";
                Localized g = MetricLabels.gpu(u.gpu());
                Localized series = MetricLabels.series("DCGM_FI_DEV_GPU_UTIL");
                String en = series.en() + " " + level + " % on " + g.en() + " from " + Fmt.clock(from) + " to "
                        + Fmt.clock(u.last()) + " (" + (gpusIdle ? u.idleSamples() + " samples)" : "steady)");
                String zh = g.zh() + " 的" + series.zh() + "自 " + Fmt.clock(from) + " 至 " + Fmt.clock(u.last())
                        + " 持续 " + level + " %" + (gpusIdle ? "（" + u.idleSamples() + " 个采样）" : "");
                c.evidence(new BilingualEvidence(Evidence.METRIC, from, u.pod(), new Localized(en, zh)), 0.75);
            }
        }
    }

    static Duration threshold(EngineSettings s, SpeedReport speed) {
        Duration t = s.hangThreshold();
        if (speed.typicalInterval() != null) {
            Duration three = speed.typicalInterval().multipliedBy(3);
            t = three.compareTo(t) > 0 ? three : t;
        }
        if (speed.stepSeconds() > 0) {
            Duration steps = Duration.ofMillis((long) (speed.stepSeconds() * 3000));
            t = steps.compareTo(t) > 0 ? steps : t;
        }
        return t;
    }
}
