package io.jobmon.diagnosis.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The conclusion when no finding decides: {@link Category#HEALTHY} only for a job the evidence shows
 * alive (recent progress, log lines or busy GPUs) or that ended well, quoting why; {@link Category#UNKNOWN}
 * otherwise, saying what is missing or empty and quoting what there is (an unexplained SIGTERM, a bare
 * exit code). A job still waiting to start gets {@link Action#WAIT} when nothing is known.
 */
final class Conclusions {

    private static final List<String> NOT_FAILED = List.of("RUNNING", "SUCCEEDED", "STOPPING", "STOPPED");
    private static final List<String> ENDED_WELL = List.of("SUCCEEDED", "STOPPING", "STOPPED");

    private final JobContext ctx;
    private final SpeedReport speed;
    private final MetricReport metrics;
    private final MatchSet matches;
    private final Coverage coverage;
    private final EngineSettings settings;
    private final DiagnosisWriter writer;

    Conclusions(JobContext ctx, SpeedReport speed, MetricReport metrics, MatchSet matches, Coverage coverage,
                EngineSettings settings, DiagnosisWriter writer) {
        this.ctx = ctx;
        this.speed = speed;
        this.metrics = metrics;
        this.matches = matches;
        this.coverage = coverage;
        this.settings = settings;
        this.writer = writer;
    }

    /**
     * Healthy or unknown.
     *
     * @param undecided a finding that was too weak (or only a pod state) to name the cause; quoted, never chosen
     */
    BilingualDiagnosis conclude(List<Category> related, Candidate undecided) {
        String status = ctx.status();
        boolean notFailed = status == null ? speed.hasProgress() : NOT_FAILED.contains(status);
        boolean endedWell = status != null && ENDED_WELL.contains(status);
        if (undecided == null && notFailed && !matches.hasMarker("crashloop")
                && (endedWell || coverage.alive(speed, metrics, settings))) {
            return healthy(related);
        }
        return unknown(related, undecided);
    }

    private BilingualDiagnosis unknown(List<Category> related, Candidate undecided) {
        List<BilingualEvidence> evidence = new ArrayList<>();
        String lastSource = null;
        for (Finding f : matches.markers("sigterm")) {
            if (evidence.size() < 3 && !f.source().equals(lastSource)) {
                evidence.add(f.toEvidence());
                lastSource = f.source();
            }
        }
        Localized detail = Localized.of("");
        boolean sigterm = matches.hasMarker("sigterm");
        if (sigterm) {
            detail = new Localized("the job received SIGTERM (exit 143) but nothing shows who stopped it",
                    "作业收到 SIGTERM（退出码 143），但证据中看不出是谁终止了它");
        } else if (matches.hasMarker("crashloop")) {
            List<Finding> loop = matches.markers("crashloop");
            evidence.add(loop.get(loop.size() - 1).toEvidence());
            detail = new Localized("the container keeps restarting (CrashLoopBackOff) but nothing shows why",
                    "容器反复重启（CrashLoopBackOff），但证据中看不出原因");
        } else if (undecided != null) {
            List<BilingualEvidence> top = undecided.topEvidence(2);
            evidence.addAll(top);
            detail = undecided.onlyPodState()
                    ? new Localized("only the container state is known, which does not say why it ended",
                    "只知道容器的结束状态，无法据此判断原因")
                    : new Localized("the only finding is too weak to name a cause", "仅有的线索不足以确定原因");
        }
        if (speed.lastPoint() != null) {
            evidence.add(BehaviourRules.logEvidence(ctx.bundle(), speed.lastPoint()));
        }
        Localized gaps = coverage.gaps();
        if (!gaps.isEmpty()) {
            detail = detail.append("; ", "；", gaps);
        }
        List<Category> rel = new ArrayList<>(related);
        if (undecided != null && !rel.contains(undecided.category)) {
            rel.add(0, undecided.category);
        }
        Action action = ctx.isPending() && evidence.isEmpty() ? Action.WAIT : null;
        double confidence = (sigterm ? 0.4 : 0.3) - coverage.penalty() / 2;
        return writer.build(Category.UNKNOWN, null, null, detail, evidence, Math.max(0.1, confidence),
                rel.stream().limit(4).toList(), action, ctx);
    }

    private BilingualDiagnosis healthy(List<Category> related) {
        List<BilingualEvidence> evidence = new ArrayList<>();
        double confidence = 0.5;
        Localized detail = null;
        if (speed.lastPoint() != null) {
            evidence.add(BehaviourRules.logEvidence(ctx.bundle(), speed.lastPoint()));
            confidence += 0.2;
        }
        if (speed.hasRates()) {
            String rate = Fmt.rate(speed.recentRate());
            boolean distorted = speed.resumed() && !Double.isNaN(speed.printedRate());
            Localized text = new Localized("real speed " + rate + " from successive progress lines"
                    + (distorted ? " (the printed average " + Fmt.rate(speed.printedRate())
                    + " is distorted by the resume from checkpoint)" : ""),
                    "根据相邻进度行计算的实际速度为 " + rate
                            + (distorted ? "（打印的平均速度 " + Fmt.rate(speed.printedRate()) + " 因从检查点恢复而失真）" : ""));
            evidence.add(new BilingualEvidence(Evidence.LOG, speed.lastPoint().time(), speed.lastPoint().pod(), text));
            detail = new Localized("steady real speed " + rate, "实际速度稳定在 " + rate);
            confidence += speed.steady() ? 0.1 : 0;
        }
        if (!metrics.util().isEmpty()) {
            double mean = metrics.util().stream().mapToDouble(MetricReport.Util::mean).average().orElse(0);
            MetricReport.Util u = metrics.util().get(0);
            Localized text = new Localized(String.format(Locale.ROOT, "mean GPU utilisation %.0f %% over %d GPUs", mean,
                    metrics.util().size()), String.format(Locale.ROOT, "%d 块 GPU 平均利用率 %.0f %%", metrics.util().size(), mean));
            evidence.add(new BilingualEvidence(Evidence.METRIC, u.first(), u.pod(), text));
            if (detail == null) {
                detail = text;
            }
            confidence += 0.1;
        }
        if (evidence.isEmpty() && ctx.lastLog(null) != null) {
            EvidenceBundle.LogLine last = lastLine();
            if (last != null) {
                evidence.add(BilingualEvidence.quote(Evidence.LOG, last.time(), last.pod(),
                        SourceTexts.clip(last.line(), PatternMatcher.QUOTE_LIMIT)));
                detail = new Localized("it keeps logging", "日志持续输出");
            }
        }
        confidence -= coverage.penalty();
        return writer.build(Category.HEALTHY, null, null, detail, evidence, Math.max(0.3, Math.min(0.95, confidence)),
                related, null, ctx);
    }

    private EvidenceBundle.LogLine lastLine() {
        List<EvidenceBundle.LogLine> logs = ctx.bundle().logs();
        for (int i = logs.size() - 1; i >= 0; i--) {
            if (logs.get(i).line() != null && !logs.get(i).line().isBlank()) {
                return logs.get(i);
            }
        }
        return null;
    }
}
