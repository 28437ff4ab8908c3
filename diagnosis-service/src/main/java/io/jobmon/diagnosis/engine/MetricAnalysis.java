package io.jobmon.diagnosis.engine;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads dcgm-exporter series: utilisation (idle tail, spinning tail, saw-tooth), clock-throttle
 * reasons with temperature and SM clock, Xid codes and double-bit ECC counters, and hosts whose
 * series stop early. One linear pass per series. Stateless.
 */
final class MetricAnalysis {

    static final long THERMAL_BITS = 0x08 | 0x20 | 0x40 | 0x80;
    static final long POWER_CAP_BITS = 0x02 | 0x04;

    private MetricAnalysis() {
    }

    static MetricReport analyze(List<EvidenceBundle.Metric> metrics, EngineSettings s) {
        if (metrics.isEmpty()) {
            return MetricReport.empty();
        }
        Map<String, EvidenceBundle.Metric> util = new LinkedHashMap<>();
        Map<String, EvidenceBundle.Metric> smActive = new LinkedHashMap<>();
        Map<String, EvidenceBundle.Metric> reasons = new LinkedHashMap<>();
        Map<String, EvidenceBundle.Metric> temp = new LinkedHashMap<>();
        Map<String, EvidenceBundle.Metric> clock = new LinkedHashMap<>();
        List<MetricReport.GpuEvent> xids = new ArrayList<>();
        List<MetricReport.GpuEvent> ecc = new ArrayList<>();
        Map<String, Instant> hostLast = new LinkedHashMap<>();
        Instant latest = null;
        for (EvidenceBundle.Metric m : metrics) {
            if (m.samples().isEmpty() || m.name() == null) {
                continue;
            }
            String host = host(m);
            Instant end = m.samples().get(m.samples().size() - 1).time();
            latest = JobContext.max(latest, end);
            if (host != null) {
                hostLast.merge(host, end, JobContext::max);
            }
            String key = host + "/" + gpu(m);
            switch (m.name()) {
                case "DCGM_FI_DEV_GPU_UTIL" -> util.put(key, m);
                case "DCGM_FI_PROF_SM_ACTIVE", "DCGM_FI_PROF_GR_ENGINE_ACTIVE" -> smActive.putIfAbsent(key, m);
                case "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS", "DCGM_FI_DEV_CLOCKS_EVENT_REASONS" -> reasons.put(key, m);
                case "DCGM_FI_DEV_GPU_TEMP" -> temp.put(key, m);
                case "DCGM_FI_DEV_SM_CLOCK" -> clock.put(key, m);
                case "DCGM_FI_DEV_XID_ERRORS" -> xids.addAll(xidEvents(key, m));
                case "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", "DCGM_FI_DEV_ECC_DBE_AGG_TOTAL",
                     "DCGM_FI_DEV_ROW_REMAP_FAILURE" -> ecc.addAll(counterIncrease(key, m));
                default -> {
                }
            }
        }
        smActive.forEach((k, m) -> util.putIfAbsent(k, m));
        List<MetricReport.Util> utils = new ArrayList<>();
        util.forEach((k, m) -> utils.add(UtilShape.summarise(k, m, s)));
        List<MetricReport.Throttle> throttles = new ArrayList<>();
        for (String k : union(reasons, temp, clock)) {
            throttles.add(throttle(k, reasons.get(k), temp.get(k), clock.get(k)));
        }
        return new MetricReport(utils, throttles, xids, ecc, stoppedHosts(hostLast, latest));
    }

    static String host(EvidenceBundle.Metric m) {
        String h = first(m, "Hostname", "node", "kubernetes_node", "instance", "host");
        if (h != null && h.indexOf(':') > 0) {
            h = h.substring(0, h.indexOf(':'));
        }
        return h;
    }

    private static String gpu(EvidenceBundle.Metric m) {
        String g = first(m, "gpu", "device", "minor_number", "UUID");
        return g == null ? "?" : g;
    }

    private static String first(EvidenceBundle.Metric m, String... keys) {
        for (String k : keys) {
            String v = m.label(k);
            if (v != null && !v.isBlank()) {
                return v;
            }
        }
        return null;
    }

    private static List<MetricReport.GpuEvent> xidEvents(String key, EvidenceBundle.Metric m) {
        List<MetricReport.GpuEvent> out = new ArrayList<>();
        double prev = 0;
        for (EvidenceBundle.Sample s : m.samples()) {
            if (s.value() > 0 && s.value() != prev && out.size() < 16) {
                out.add(new MetricReport.GpuEvent(key, m.label("pod"), s.value(), s.time()));
            }
            prev = s.value();
        }
        return out;
    }

    private static List<MetricReport.GpuEvent> counterIncrease(String key, EvidenceBundle.Metric m) {
        double base = m.samples().get(0).value();
        boolean failureFlag = "DCGM_FI_DEV_ROW_REMAP_FAILURE".equals(m.name());
        for (EvidenceBundle.Sample s : m.samples()) {
            if (s.value() > base || (failureFlag && s.value() > 0)) {
                return List.of(new MetricReport.GpuEvent(key, m.label("pod"), s.value() - (failureFlag ? 0 : base),
                        s.time()));
            }
        }
        return List.of();
    }

    private static MetricReport.Throttle throttle(String key, EvidenceBundle.Metric reasons,
                                                  EvidenceBundle.Metric temp, EvidenceBundle.Metric clock) {
        int n = 0;
        int thermal = 0;
        int power = 0;
        long mask = 0;
        Instant firstThermal = null;
        String pod = null;
        if (reasons != null) {
            pod = reasons.label("pod");
            for (EvidenceBundle.Sample s : reasons.samples()) {
                long bits = (long) s.value();
                n++;
                mask |= bits;
                if ((bits & THERMAL_BITS) != 0) {
                    thermal++;
                    firstThermal = firstThermal == null ? s.time() : firstThermal;
                } else if ((bits & POWER_CAP_BITS) != 0) {
                    power++;
                }
            }
        }
        double maxTemp = Double.NaN;
        double rise = Double.NaN;
        if (temp != null) {
            pod = pod == null ? temp.label("pod") : pod;
            maxTemp = temp.samples().stream().mapToDouble(EvidenceBundle.Sample::value).max().orElse(Double.NaN);
            rise = quarter(temp, false) - quarter(temp, true);
        }
        double ratio = Double.NaN;
        if (clock != null) {
            double early = quarter(clock, true);
            ratio = early > 0 ? quarter(clock, false) / early : Double.NaN;
        }
        return new MetricReport.Throttle(key, pod, n, thermal, power, firstThermal, mask, maxTemp, rise, ratio);
    }

    /** Median of the first (or last) quarter of a series. */
    private static double quarter(EvidenceBundle.Metric m, boolean early) {
        List<EvidenceBundle.Sample> s = m.samples();
        int q = Math.max(1, s.size() / 4);
        List<EvidenceBundle.Sample> part = early ? s.subList(0, q) : s.subList(s.size() - q, s.size());
        return SpeedAnalysis.median(part.stream().mapToDouble(EvidenceBundle.Sample::value).toArray());
    }

    private static List<MetricReport.GpuEvent> stoppedHosts(Map<String, Instant> hostLast, Instant latest) {
        List<MetricReport.GpuEvent> out = new ArrayList<>();
        if (hostLast.size() < 2 || latest == null) {
            return out;
        }
        hostLast.forEach((h, t) -> {
            if (Duration.between(t, latest).toSeconds() >= 120) {
                out.add(new MetricReport.GpuEvent(h, null, 0, t));
            }
        });
        return out.size() < hostLast.size() ? out : List.of();
    }

    @SafeVarargs
    private static List<String> union(Map<String, ?>... maps) {
        List<String> keys = new ArrayList<>();
        for (Map<String, ?> m : maps) {
            for (String k : m.keySet()) {
                if (!keys.contains(k)) {
                    keys.add(k);
                }
            }
        }
        return keys;
    }
}
