package io.jobmon.diagnosis.engine;

import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads metric series through the reference catalogues: any {@code dcgm-field} row by its {@code signal} (a counter
 * that increased within the window, a value that became nonzero, a bitmask with bits set, a gauge above a threshold),
 * and Xid codes of {@code DCGM_FI_DEV_XID_ERRORS} that the settings do not classify, by the {@code xid} row of that
 * code. A new row plugs in without code. Fields with a dedicated analysis (utilisation, throttle reasons,
 * temperature, SM clock, Xid, double-bit ECC, row-remap failure) are left to it. A signal seen well after a finished
 * job ended does not count; one followed by training progress counts only for a row that advises (CONTACT_ADMIN),
 * never for one that would restart or stop the job. One pass per series. Stateless.
 */
final class CatalogueSignals {

    /** Fields {@link MetricAnalysis} reads itself. */
    static final Set<String> DEDICATED = Set.of("DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_PROF_SM_ACTIVE",
            "DCGM_FI_PROF_GR_ENGINE_ACTIVE", "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS", "DCGM_FI_DEV_CLOCKS_EVENT_REASONS",
            "DCGM_FI_DEV_GPU_TEMP", "DCGM_FI_DEV_SM_CLOCK", "DCGM_FI_DEV_XID_ERRORS", "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL",
            "DCGM_FI_DEV_ECC_DBE_AGG_TOTAL", "DCGM_FI_DEV_ROW_REMAP_FAILURE");

    private static final int MAX_PER_ROW = 4;
    private static final double FAULT = 0.85;
    private static final double WHILE_TRAINING = 0.7;

    /** A fired signal: where, when and by how much. */
    record Fired(Instant time, double value, double delta) {
    }

    private CatalogueSignals() {
    }

    static void collect(List<EvidenceBundle.Metric> metrics, JobContext ctx, FindingJudge judge, EngineSettings s,
                        PatternCatalogue catalogue, Map<Category, Candidate> out) {
        if (metrics.isEmpty()) {
            return;
        }
        ReferenceCatalogues refs = catalogue.references();
        Map<String, ReferenceCatalogues.Row> fields = new HashMap<>();
        for (ReferenceCatalogues.Row r : refs.rows("dcgm-field")) {
            for (String n : r.names()) {
                if (!DEDICATED.contains(n) && !r.informative()) {
                    fields.putIfAbsent(n, r);
                }
            }
        }
        Map<Integer, ReferenceCatalogues.Row> xids = new HashMap<>();
        for (ReferenceCatalogues.Row r : refs.rows("xid")) {
            if (r.code().trim().matches("\\d{1,4}") && !r.informative()) {
                xids.putIfAbsent(Integer.parseInt(r.code().trim()), r);
            }
        }
        if (fields.isEmpty() && xids.isEmpty()) {
            return;
        }
        Map<String, Integer> perRow = new HashMap<>();
        for (EvidenceBundle.Metric m : metrics) {
            if (m.name() == null || m.samples().isEmpty()) {
                continue;
            }
            if ("DCGM_FI_DEV_XID_ERRORS".equals(m.name())) {
                xid(m, xids, ctx, judge, s, catalogue, out);
                continue;
            }
            ReferenceCatalogues.Row row = fields.get(m.name());
            if (row == null || perRow.getOrDefault(row.id(), 0) >= MAX_PER_ROW) {
                continue;
            }
            Fired f = fire(row.signal(), m.samples());
            if (f == null || afterTheEnd(f.time(), ctx)) {
                continue;
            }
            perRow.merge(row.id(), 1, Integer::sum); // the series that show the signal count, not the quiet GPUs
            boolean goesOn = judge.followedByProgress(f.time());
            if (goesOn && !onlyAdvises(row, catalogue)) {
                continue;
            }
            String gpu = gpuOf(m);
            String shown = "bitmask".equals(row.signal()) ? "0x" + Long.toHexString((long) f.value())
                    : "counter-increase".equals(row.signal()) ? "+" + Fmt.num(f.delta()) : Fmt.num(f.value());
            Localized g = MetricLabels.gpu(gpu);
            Localized series = MetricLabels.series(m.name());
            Localized text = new Localized(series.en() + " " + shown + " on " + g.en() + " (" + row.explanation().en()
                    + ")", g.zh() + " 的" + series.zh() + " " + shown + "（" + row.explanation().zh() + "）");
            support(out, catalogue, row, f.time(), m.label("pod"), hostOf(m), text, goesOn ? WHILE_TRAINING : FAULT);
        }
    }

    /**
     * A fault the row only advises on (CONTACT_ADMIN, WAIT, NONE): it counts even while training goes on — NVLink
     * or PCIe errors that keep rising on a job that still advances are the one sign of a failing link — with a
     * weight that still decides among infrastructure causes, and never asks to restart or stop a running job.
     */
    private static boolean onlyAdvises(ReferenceCatalogues.Row row, PatternCatalogue catalogue) {
        Action a = row.action() != null ? row.action() : catalogue.category(row.category()).action();
        return a == Action.CONTACT_ADMIN || a == Action.WAIT || a == Action.NONE;
    }

    private static void xid(EvidenceBundle.Metric m, Map<Integer, ReferenceCatalogues.Row> xids, JobContext ctx,
                            FindingJudge judge, EngineSettings s, PatternCatalogue catalogue,
                            Map<Category, Candidate> out) {
        Set<Integer> seen = new HashSet<>();
        for (EvidenceBundle.Sample x : m.samples()) {
            int code = (int) x.value();
            if (code <= 0 || !seen.add(code) || s.xidHardware().contains(code) || s.xidApplication().contains(code)) {
                continue;
            }
            ReferenceCatalogues.Row row = xids.get(code);
            if (row == null || !relevant(x.time(), ctx, judge)) {
                continue;
            }
            Localized g = MetricLabels.gpu(gpuOf(m));
            Localized series = MetricLabels.series("DCGM_FI_DEV_XID_ERRORS");
            Localized text = new Localized(series.en() + " = " + code + " on " + g.en() + " ("
                    + row.explanation().en() + ")", g.zh() + " 的" + series.zh() + " = " + code + "（"
                    + row.explanation().zh() + "）");
            support(out, catalogue, row, x.time(), m.label("pod"), hostOf(m), text, FAULT);
        }
    }

    private static void support(Map<Category, Candidate> out, PatternCatalogue catalogue, ReferenceCatalogues.Row row,
                                Instant time, String pod, String host, Localized text, double weight) {
        Candidate c = out.computeIfAbsent(row.category(), k -> new Candidate(catalogue.category(k)));
        c.support(weight, true, time, pod, host, row.explanation())
                .evidence(new BilingualEvidence(Evidence.METRIC, time, pod, text), weight - 0.05);
        if (row.action() != catalogue.category(row.category()).action()) {
            c.action(row.action(), null);
        }
    }

    /** When and how the series shows the row's signal, or null. */
    static Fired fire(String signal, List<EvidenceBundle.Sample> samples) {
        double base = samples.get(0).value();
        double threshold = signal.startsWith("gauge-above:") ? Double.parseDouble(signal.substring(12)) : 0;
        for (EvidenceBundle.Sample x : samples) {
            double v = x.value();
            boolean fires = switch (signal) {
                case "counter-increase" -> v > base;
                case "nonzero", "bitmask" -> v != 0 && !Double.isNaN(v);
                default -> v > threshold;
            };
            if (fires) {
                return new Fired(x.time(), v, v - base);
            }
        }
        return null;
    }

    private static boolean relevant(Instant t, JobContext ctx, FindingJudge judge) {
        return !afterTheEnd(t, ctx) && !judge.followedByProgress(t);
    }

    private static boolean afterTheEnd(Instant t, JobContext ctx) {
        Instant end = ctx.isTerminal() ? ctx.finishedAt() : null;
        return end != null && t != null && t.isAfter(end.plusSeconds(300));
    }

    private static String gpuOf(EvidenceBundle.Metric m) {
        String host = hostOf(m);
        String g = m.label("gpu") != null ? m.label("gpu") : m.label("device");
        return host + "/" + g; // MetricLabels.gpu leaves out an unknown part
    }

    private static String hostOf(EvidenceBundle.Metric m) {
        return MetricAnalysis.host(m);
    }
}
