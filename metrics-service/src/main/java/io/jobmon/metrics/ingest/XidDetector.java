package io.jobmon.metrics.ingest;

import io.jobmon.contracts.events.MetricSamples;
import io.jobmon.metrics.store.SeriesLabels;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Xid errors as events. dcgm-exporter's {@code DCGM_FI_DEV_XID_ERRORS} is a gauge holding only the last Xid of
 * a GPU: a new event is a change of that code (to a non-zero one); the code is its {@code err_code} label when
 * there is one (dcgm-exporter 3.x adds it with {@code err_msg}), else the value. {@code DCGM_EXP_XID_ERRORS_COUNT{xid}}
 * (dcgm-exporter 3.3+) counts each code within a sliding window: a rise is that many new events.
 */
public final class XidDetector {

    public static final String LAST_XID = "DCGM_FI_DEV_XID_ERRORS";
    public static final String XID_COUNT = "DCGM_EXP_XID_ERRORS_COUNT";

    /** One Xid event on a GPU. */
    public record Event(String node, String gpu, long tsMs, int code, int count, String pod, String namespace) {
    }

    /** A state value the detection keeps per GPU: {@code last} (the last code) or {@code count:<code>}. */
    public record StateKey(String node, String gpu, String key) {
    }

    private XidDetector() {
    }

    public static boolean isXid(String name) {
        return LAST_XID.equals(name) || XID_COUNT.equals(name);
    }

    /** A GPU as dcgm-exporter names it: its index, else its UUID. */
    static String gpu(Map<String, String> labels) {
        String g = SeriesLabels.get(labels, SeriesLabels.GPU);
        if (g == null) {
            g = SeriesLabels.get(labels, "UUID");
        }
        return g == null ? SeriesLabels.get(labels, "uuid") : g;
    }

    /** A code label's number (dcgm-exporter 3.x's {@code err_code}, the count's {@code xid}); null when not one. */
    static Integer code(String label) {
        if (label == null) {
            return null;
        }
        try {
            return Integer.valueOf(label.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * @param samples Xid samples of one node in any order
     * @param state the known state (read and updated in place)
     * @return the events, in time order
     */
    public static List<Event> detect(String node, List<MetricSamples.Sample> samples, Map<StateKey, Double> state) {
        List<MetricSamples.Sample> sorted = new ArrayList<>(samples);
        sorted.sort(Comparator.comparingLong(MetricSamples.Sample::timestampMs));
        List<Event> events = new ArrayList<>();
        for (MetricSamples.Sample s : sorted) {
            String gpu = gpu(s.labels());
            if (gpu == null || Double.isNaN(s.value())) {
                continue;
            }
            String pod = SeriesLabels.get(s.labels(), SeriesLabels.POD);
            String ns = SeriesLabels.get(s.labels(), SeriesLabels.NAMESPACE);
            if (LAST_XID.equals(s.name())) {
                Integer labelled = code(SeriesLabels.get(s.labels(), "err_code"));
                int code = labelled != null ? labelled : (int) s.value();
                StateKey k = new StateKey(node, gpu, "last");
                Double prev = state.get(k);
                if (code != 0 && (prev == null || prev.intValue() != code)) {
                    events.add(new Event(node, gpu, s.timestampMs(), code, 1, pod, ns));
                }
                state.put(k, (double) code);
            } else {
                String xid = SeriesLabels.get(s.labels(), "xid");
                Integer parsed = code(xid != null ? xid : SeriesLabels.get(s.labels(), "err_code"));
                if (parsed == null) {
                    continue;
                }
                int code = parsed;
                StateKey k = new StateKey(node, gpu, "count:" + code);
                double prev = state.getOrDefault(k, 0.0);
                if (s.value() > prev) {
                    events.add(new Event(node, gpu, s.timestampMs(), code, (int) Math.round(s.value() - prev), pod, ns));
                }
                state.put(k, s.value());
            }
        }
        return events;
    }
}
