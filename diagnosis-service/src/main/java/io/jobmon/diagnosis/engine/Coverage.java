package io.jobmon.diagnosis.engine;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What the bundle can tell at all: which sources the service could not reach ({@code missingSources}), which
 * answered with nothing, and whether anything shows the job alive right now (recent progress, recent log lines,
 * busy GPUs). Missing evidence lowers the confidence of any conclusion; no evidence of life never reads as healthy.
 */
final class Coverage {

    /** Confidence lost per missing source that carries findings (logs, events, metrics). */
    static final double PER_MISSING_SOURCE = 0.1;
    /** Confidence lost per missing job or pod facts. */
    static final double PER_MISSING_FACT = 0.05;
    private static final Duration METRICS_FRESH = Duration.ofMinutes(3);

    private final EvidenceBundle bundle;
    private final JobContext ctx;

    Coverage(EvidenceBundle bundle, JobContext ctx) {
        this.bundle = bundle;
        this.ctx = ctx;
    }

    /** How much confidence the missing sources cost. */
    double penalty() {
        double p = 0;
        for (String s : bundle.missingSources()) {
            p += "job".equals(s) || "pods".equals(s) ? PER_MISSING_FACT : PER_MISSING_SOURCE;
        }
        return p;
    }

    boolean anyMissing() {
        return !bundle.missingSources().isEmpty();
    }

    /**
     * Something shows the job doing work at the end of the window: training progress or log lines within the hang
     * threshold (stretched for slow steps), or GPUs busy in fresh metrics.
     */
    boolean alive(SpeedReport speed, MetricReport metrics, EngineSettings settings) {
        Instant now = ctx.now();
        if (now == null) {
            return speed.hasProgress() || !bundle.logs().isEmpty();
        }
        Duration recent = HangDetector.threshold(settings, speed);
        if (within(speed.lastActivity(), now, recent) || within(ctx.lastLog(null), now, recent)) {
            return true;
        }
        for (MetricReport.Util u : metrics.util()) {
            if (within(u.last(), now, METRICS_FRESH) && u.idleSince() == null && u.mean() > settings.idleUtilPercent()) {
                return true;
            }
        }
        return false;
    }

    private static boolean within(Instant t, Instant now, Duration d) {
        return t != null && !t.isBefore(now.minus(d));
    }

    /** What could not be read, or what was empty, in both languages; empty when every source had something. */
    Localized gaps() {
        List<String> missing = new ArrayList<>();
        List<String> missingZh = new ArrayList<>();
        for (String s : List.of("job", "pods", "events", "logs", "metrics")) {
            if (bundle.missing(s)) {
                missing.add(name(s));
                missingZh.add(nameZh(s));
            }
        }
        List<String> empty = new ArrayList<>();
        List<String> emptyZh = new ArrayList<>();
        if (bundle.logs().isEmpty() && !bundle.missing("logs")) {
            empty.add("log lines");
            emptyZh.add("日志");
        }
        if (bundle.metrics().stream().allMatch(m -> m.samples().isEmpty()) && !bundle.missing("metrics")) {
            empty.add("metrics");
            emptyZh.add("指标");
        }
        if (bundle.events().isEmpty() && !bundle.missing("events")) {
            empty.add("events");
            emptyZh.add("事件");
        }
        Localized out = Localized.of("");
        if (!missing.isEmpty()) {
            out = new Localized("could not read the " + join(missing, "and"), "无法读取" + String.join("、", missingZh));
        }
        if (!empty.isEmpty()) {
            out = out.append("; ", "；", new Localized("no " + join(empty, "or") + " in the window",
                    "时间窗口内没有" + String.join("、", emptyZh)));
        }
        return out;
    }

    private static String join(List<String> items, String last) {
        if (items.size() == 1) {
            return items.get(0);
        }
        return String.join(", ", items.subList(0, items.size() - 1)) + " " + last + " " + items.get(items.size() - 1);
    }

    private static String name(String source) {
        return switch (source) {
            case "job" -> "job record";
            case "pods" -> "pod states";
            default -> source;
        };
    }

    private static String nameZh(String source) {
        return switch (source) {
            case "job" -> "作业信息";
            case "pods" -> "Pod 状态";
            case "events" -> "事件";
            case "logs" -> "日志";
            default -> "指标";
        };
    }
}
