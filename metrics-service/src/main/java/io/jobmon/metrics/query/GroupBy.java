package io.jobmon.metrics.query;

import io.jobmon.contracts.problem.ApiException;
import io.jobmon.metrics.store.SeriesLabels;
import java.util.LinkedHashMap;
import java.util.Map;

/** How a chart splits its series: one line for the job, per pod, per node or per GPU. */
public enum GroupBy {
    JOB, POD, NODE, GPU;

    public static GroupBy parse(String s, GroupBy fallback) {
        if (s == null || s.isBlank()) {
            return fallback;
        }
        try {
            return valueOf(s.trim().toUpperCase());
        } catch (IllegalArgumentException e) {
            throw ApiException.invalid("groupBy", "field.one-of", "job, pod, node, gpu");
        }
    }

    /** The group's labels for an entity on {@code node} (and {@code gpu}), shown under {@code pod}. */
    public Map<String, String> labels(String node, String gpu, String pod) {
        return labels(node, gpu, pod, Map.of(), false);
    }

    /**
     * The same; a GPU's group also names its {@code uuid} and {@code pciBusId} (dcgm-exporter's {@code UUID} and
     * {@code pci_bus_id}, from {@code series}) and, when {@code podOfGpu}, the pod that held it.
     */
    public Map<String, String> labels(String node, String gpu, String pod, Map<String, String> series,
            boolean podOfGpu) {
        Map<String, String> m = new LinkedHashMap<>();
        switch (this) {
            case JOB -> {
            }
            case POD -> {
                if (pod != null) {
                    m.put("pod", pod);
                } else {
                    m.put("node", node); // the pod on this node is not known
                }
            }
            case NODE -> m.put("node", node);
            case GPU -> {
                m.put("node", node);
                if (gpu != null) {
                    m.put("gpu", gpu);
                    String uuid = SeriesLabels.get(series, "UUID");
                    String bus = SeriesLabels.get(series, "pci_bus_id");
                    if (uuid != null) {
                        m.put("uuid", uuid);
                    }
                    if (bus != null) {
                        m.put("pciBusId", bus);
                    }
                }
                if (podOfGpu && pod != null) {
                    m.put("pod", pod);
                }
            }
        }
        return m;
    }
}
