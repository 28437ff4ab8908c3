package io.jobmon.diagnosis.engine;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * Infrastructure evidence from metrics: Xid codes and double-bit ECC increases (GPU hardware faults,
 * or application Xids 13/31/43), and hosts whose metrics stopped while the others went on (a node
 * that went away).
 */
final class HardwareSignals {

    private HardwareSignals() {
    }

    static void collect(MetricReport metrics, JobContext ctx, FindingJudge judge, EngineSettings s,
                        PatternCatalogue catalogue, Map<Category, Candidate> out) {
        for (MetricReport.GpuEvent x : metrics.xids()) {
            int code = (int) x.code();
            boolean hardware = s.xidHardware().contains(code);
            if (!hardware && !s.xidApplication().contains(code) || !relevant(x.time(), ctx, judge)) {
                continue;
            }
            Category c = hardware ? Category.GPU_HARDWARE_FAULT : Category.USER_CODE_ERROR;
            Localized g = MetricLabels.gpu(x.gpu());
            Localized series = MetricLabels.series("DCGM_FI_DEV_XID_ERRORS");
            Localized text = new Localized(series.en() + " = " + code + " on " + g.en(),
                    g.zh() + " 的" + series.zh() + " = " + code);
            double w = hardware ? 0.9 : 0.45;
            out.computeIfAbsent(c, k -> new Candidate(catalogue.category(k)))
                    .support(w, hardware, x.time(), x.pod(), hostOf(x.gpu()),
                            new Localized("Xid " + code + " on " + g.en(), g.zh() + " 出现 Xid " + code))
                    .evidence(new BilingualEvidence(Evidence.METRIC, x.time(), x.pod(), text), w - 0.05);
        }
        for (MetricReport.GpuEvent e : metrics.ecc()) {
            if (!relevant(e.time(), ctx, judge)) {
                continue;
            }
            Localized g = MetricLabels.gpu(e.gpu());
            Localized text = new Localized("double-bit ECC errors +" + Fmt.num(e.code()) + " on " + g.en(),
                    g.zh() + " 双比特 ECC 错误 +" + Fmt.num(e.code()));
            out.computeIfAbsent(Category.GPU_HARDWARE_FAULT, k -> new Candidate(catalogue.category(k)))
                    .support(0.85, true, e.time(), e.pod(), hostOf(e.gpu()), text)
                    .evidence(new BilingualEvidence(Evidence.METRIC, e.time(), e.pod(),
                            Localized.of("DCGM_FI_DEV_ECC_DBE: ").append("", "", text)), 0.8);
        }
        if (ctx.isSucceeded()) {
            return;
        }
        for (MetricReport.GpuEvent h : metrics.stopped()) {
            Instant now = ctx.now();
            if (now == null || Duration.between(h.time(), now).toMinutes() < 2 || judge.followedByProgress(h.time())) {
                continue;
            }
            boolean othersIdled = othersWentIdle(metrics, h);
            double w = othersIdled ? 0.7 : 0.4;
            Localized text = new Localized("metrics of host " + h.gpu() + " stopped at " + Fmt.clock(h.time())
                    + " while other hosts kept reporting" + (othersIdled ? " (and their GPUs went idle right after)" : ""),
                    "主机 " + h.gpu() + " 的指标在 " + Fmt.clock(h.time()) + " 中断，其他主机仍在上报"
                            + (othersIdled ? "（随后其 GPU 进入空闲或卡住）" : ""));
            out.computeIfAbsent(Category.NODE_FAILURE, k -> new Candidate(catalogue.category(k)))
                    .support(w, othersIdled, h.time(), null, h.gpu(), null)
                    .evidence(new BilingualEvidence(Evidence.METRIC, h.time(), null, text), w);
        }
    }

    /**
     * The GPUs of the hosts that kept reporting went idle (or stuck at 100 % in a collective) within
     * minutes of the host going silent.
     */
    private static boolean othersWentIdle(MetricReport metrics, MetricReport.GpuEvent stopped) {
        int others = 0;
        int idled = 0;
        for (MetricReport.Util u : metrics.util()) {
            if (u.gpu().startsWith(stopped.gpu() + "/")) {
                continue;
            }
            others++;
            if (near(u.idleSince(), stopped.time()) || near(u.busySince(), stopped.time())) {
                idled++;
            }
        }
        return others > 0 && idled * 2 >= others;
    }

    private static boolean near(Instant t, Instant ref) {
        return t != null && !t.isBefore(ref.minusSeconds(60)) && !t.isAfter(ref.plusSeconds(180));
    }

    private static boolean relevant(Instant t, JobContext ctx, FindingJudge judge) {
        Instant end = ctx.isTerminal() ? ctx.finishedAt() : null;
        if (end != null && t != null && t.isAfter(end.plusSeconds(300))) {
            return false;
        }
        return !judge.followedByProgress(t);
    }

    private static String hostOf(String gpu) {
        return MetricLabels.host(gpu);
    }
}
