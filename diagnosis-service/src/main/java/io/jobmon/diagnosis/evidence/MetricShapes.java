package io.jobmon.diagnosis.evidence;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Map;

/**
 * Turns metrics-service series ({@code GET /api/v1/jobs/{id}/metrics}) into the bundle's {@code metrics}: names as
 * dcgm-exporter publishes them (the engine reads {@code DCGM_FI_*}), labels {@code pod}, {@code Hostname},
 * {@code gpu}, samples {@code [RFC 3339 time, number]}.
 */
public final class MetricShapes {

    /** metrics-service catalogue names ({@code GET /api/v1/metrics/catalogue}) → dcgm-exporter names. */
    static final Map<String, String> DCGM = Map.ofEntries(
            Map.entry("gpu_util", "DCGM_FI_DEV_GPU_UTIL"),
            Map.entry("gpu_mem_used", "DCGM_FI_DEV_FB_USED"),
            Map.entry("gpu_temp", "DCGM_FI_DEV_GPU_TEMP"),
            Map.entry("gpu_power", "DCGM_FI_DEV_POWER_USAGE"),
            Map.entry("sm_active", "DCGM_FI_PROF_SM_ACTIVE"),
            Map.entry("tensor_active", "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE"),
            Map.entry("xid", "DCGM_FI_DEV_XID_ERRORS"),
            Map.entry("ecc_dbe", "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL"),
            Map.entry("throttle_reasons", "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS"),
            Map.entry("sm_clock", "DCGM_FI_DEV_SM_CLOCK"));

    private MetricShapes() {
    }

    public static String dcgmName(String name) {
        return name == null ? null : DCGM.getOrDefault(name, name);
    }

    /** The metrics-service name of a dcgm-exporter name (the name itself when it is already a short one). */
    public static String shortName(String name) {
        return DCGM.entrySet().stream().filter(e -> e.getValue().equals(name)).map(Map.Entry::getKey).findFirst()
                .orElse(name);
    }

    public static ArrayNode metrics(JsonNode answer) {
        ArrayNode out = Json.array();
        for (JsonNode s : Json.items(answer, "series", "items", "metrics")) {
            String name = dcgmName(Json.text(s, "name", "metric", "__name__"));
            if (name == null) {
                continue;
            }
            ObjectNode metric = out.addObject();
            metric.put("name", name);
            metric.set("labels", labels(s));
            ArrayNode samples = metric.putArray("samples");
            for (JsonNode p : Json.items(firstArray(s, "samples", "values", "points", "data"))) {
                addSample(samples, p);
            }
        }
        return out;
    }

    private static JsonNode firstArray(JsonNode s, String... names) {
        for (String n : names) {
            if (s.path(n).isArray()) {
                return s.get(n);
            }
        }
        return null;
    }

    private static ObjectNode labels(JsonNode s) {
        ObjectNode labels = Json.object();
        if (s.path("labels").isObject()) {
            Iterator<Map.Entry<String, JsonNode>> it = s.get("labels").fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                if (e.getValue().isValueNode() && !e.getValue().isNull()) {
                    labels.put(e.getKey(), e.getValue().asText());
                }
            }
        }
        // metrics-service names a series' group ({@code groupBy=gpu}: node and gpu; pod when grouped by pod).
        JsonNode group = s.path("group");
        putIfAbsent(labels, "pod", Json.text(group, "pod"));
        putIfAbsent(labels, "Hostname", Json.text(group, "node"));
        putIfAbsent(labels, "gpu", Json.text(group, "gpu"));
        putIfAbsent(labels, "pod", Json.text(s, "pod"));
        putIfAbsent(labels, "Hostname", Json.text(s, "node", "Hostname", "hostname"));
        putIfAbsent(labels, "gpu", Json.text(s, "gpu"));
        return labels;
    }

    private static void putIfAbsent(ObjectNode o, String key, String value) {
        if (value != null && !o.has(key)) {
            o.put(key, value);
        }
    }

    private static void addSample(ArrayNode samples, JsonNode p) {
        JsonNode t;
        JsonNode v;
        if (p.isArray() && p.size() == 2) {
            t = p.get(0);
            v = p.get(1);
        } else if (p.isObject()) {
            t = p.has("time") ? p.get("time") : p.path("t");
            v = p.has("value") ? p.get("value") : p.path("v");
        } else {
            return;
        }
        String time = Json.time(t);
        Double value = v.isNumber() ? Double.valueOf(v.asDouble()) : parse(v.asText(null));
        if (time != null && value != null && !value.isNaN() && !value.isInfinite()) {
            samples.addArray().add(time).add(value);
        }
    }

    private static Double parse(String s) {
        try {
            return s == null ? null : Double.valueOf(s.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
