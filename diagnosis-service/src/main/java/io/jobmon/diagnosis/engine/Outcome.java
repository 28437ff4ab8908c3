package io.jobmon.diagnosis.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The conclusion when no finding applies: {@link Category#HEALTHY} for a job that runs or finished
 * well (quoting its progress and speed), {@link Category#UNKNOWN} otherwise (quoting what is there,
 * e.g. an unexplained SIGTERM); a pending job without evidence gets {@link Action#WAIT}.
 */
final class Outcome {

    private Outcome() {
    }

    static Diagnosis conclude(JobContext ctx, SpeedReport speed, MetricReport metrics, MatchSet matches,
                              List<Category> related, DiagnosisWriter writer, Locale locale) {
        String status = ctx.status();
        boolean healthy = status == null ? speed.hasProgress()
                : List.of("RUNNING", "SUCCEEDED", "STOPPING", "STOPPED").contains(status);
        if (healthy && !matches.hasMarker("crashloop")) {
            return healthy(ctx, speed, metrics, related, writer, locale);
        }
        List<Evidence> evidence = new ArrayList<>();
        String lastSource = null;
        for (Finding f : matches.markers("sigterm")) {
            if (evidence.size() < 3 && !f.source().equals(lastSource)) {
                evidence.add(f.toEvidence());
                lastSource = f.source();
            }
        }
        if (speed.lastPoint() != null) {
            evidence.add(BehaviourRules.logEvidence(ctx.bundle(), speed.lastPoint()));
        }
        boolean sigterm = matches.hasMarker("sigterm");
        Localized detail = sigterm ? new Localized("the job received SIGTERM (exit 143) but nothing shows who stopped it",
                "作业收到 SIGTERM（退出码 143），但证据中看不出是谁终止了它") : null;
        Action action = ctx.isPending() && evidence.isEmpty() ? Action.WAIT : null;
        return writer.build(Category.UNKNOWN, null, null, detail, evidence, sigterm ? 0.4 : 0.3, related, action,
                ctx, locale);
    }

    private static Diagnosis healthy(JobContext ctx, SpeedReport speed, MetricReport metrics, List<Category> related,
                                     DiagnosisWriter writer, Locale locale) {
        List<Evidence> evidence = new ArrayList<>();
        double confidence = 0.5;
        Localized detail = null;
        if (speed.lastPoint() != null) {
            evidence.add(BehaviourRules.logEvidence(ctx.bundle(), speed.lastPoint()));
            confidence += 0.2;
        }
        if (speed.hasRates()) {
            String rate = Fmt.rate(speed.recentRate());
            String text = "real speed " + rate + " from successive progress lines"
                    + (speed.resumed() && !Double.isNaN(speed.printedRate())
                    ? " (the printed average " + Fmt.rate(speed.printedRate()) + " is distorted by the resume from checkpoint)"
                    : "");
            evidence.add(new Evidence(Evidence.LOG, speed.lastPoint().time(), speed.lastPoint().pod(), text));
            detail = new Localized("steady real speed " + rate, "实际速度稳定在 " + rate);
            confidence += speed.steady() ? 0.1 : 0;
        }
        if (!metrics.util().isEmpty()) {
            double mean = metrics.util().stream().mapToDouble(MetricReport.Util::mean).average().orElse(0);
            MetricReport.Util u = metrics.util().get(0);
            evidence.add(new Evidence(Evidence.METRIC, u.first(), u.pod(), String.format(Locale.ROOT,
                    "mean GPU utilisation %.0f %% over %d GPUs", mean, metrics.util().size())));
            confidence += 0.1;
        }
        return writer.build(Category.HEALTHY, null, null, detail, evidence, Math.min(0.95, confidence), related, null,
                ctx, locale);
    }
}
