package io.jobmon.metrics.query;

import io.jobmon.contracts.problem.ApiException;
import io.jobmon.metrics.store.SeriesLabels;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How a chart splits its series: one line for the job, per pod, per node, per GPU or per container (a container
 * metric's; any other metric's lines are per pod then).
 */
public enum GroupBy {
    JOB, POD, NODE, GPU, CONTAINER;

    public static GroupBy parse(String s, GroupBy fallback) {
        if (s == null || s.isBlank()) {
            return fallback;
        }
        try {
            return valueOf(s.trim().toUpperCase());
        } catch (IllegalArgumentException e) {
            throw ApiException.invalid("groupBy", "field.one-of", "job, pod, node, gpu, container");
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
            case POD, CONTAINER -> {
                String container = this == CONTAINER ? SeriesLabels.get(series, SeriesLabels.CONTAINER) : null;
                if (container != null && pod != null) {
                    m.put("pod", pod);
                    m.put("container", container);
                } else if (pod != null) {
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
