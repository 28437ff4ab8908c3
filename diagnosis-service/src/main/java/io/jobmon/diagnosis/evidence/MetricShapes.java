package io.jobmon.diagnosis.evidence;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Turns metrics-service series ({@code GET /api/v1/jobs/{id}/metrics}: {@code series: [{metric, group, points}]})
 * into the bundle's {@code metrics}: names as dcgm-exporter publishes them (the engine reads {@code DCGM_FI_*}), labels
 * as dcgm-exporter writes them ({@code pod}, {@code Hostname}, {@code gpu}, {@code UUID}, {@code pci_bus_id}; a
 * {@code groupBy=gpu} line names them {@code node}, {@code gpu}, {@code uuid}, {@code pciBusId}, {@code pod}), samples
 * {@code [RFC 3339 time, number]}. metrics-service's own forms are turned back into dcgm-exporter's: {@code xid}
 * (events per code and step) into {@code DCGM_FI_DEV_XID_ERRORS} (the last Xid code), and the error counts per step
 * (ECC, PCIe replays, NVLink errors) into the running totals the exporter's counters hold. The series are the job's by
 * pod labels, by the GPUs its pods held ({@code gpu}: also the exporter's unlabelled Xid and error series) or by
 * placement, as metrics-service attributed them.
 */
public final class MetricShapes {

    /** metrics-service catalogue names → dcgm-exporter names. */
    static final Map<String, String> DCGM = Map.ofEntries(
            Map.entry("gpu_util", "DCGM_FI_DEV_GPU_UTIL"),
            Map.entry("gpu_mem_used", "DCGM_FI_DEV_FB_USED"),
            Map.entry("gpu_mem_copy_util", "DCGM_FI_DEV_MEM_COPY_UTIL"),
            Map.entry("gpu_temp", "DCGM_FI_DEV_GPU_TEMP"),
            Map.entry("gpu_mem_temp", "DCGM_FI_DEV_MEMORY_TEMP"),
            Map.entry("gpu_power", "DCGM_FI_DEV_POWER_USAGE"),
            Map.entry("sm_active", "DCGM_FI_PROF_SM_ACTIVE"),
            Map.entry("tensor_active", "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE"),
            Map.entry("sm_clock", "DCGM_FI_DEV_SM_CLOCK"),
            Map.entry("mem_clock", "DCGM_FI_DEV_MEM_CLOCK"),
            Map.entry("throttle_reasons", "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS"),
            Map.entry("xid", "DCGM_FI_DEV_XID_ERRORS"),
            Map.entry("ecc_sbe", "DCGM_FI_DEV_ECC_SBE_VOL_TOTAL"),
            Map.entry("ecc_dbe", "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL"),
            Map.entry("ecc_sbe_agg", "DCGM_FI_DEV_ECC_SBE_AGG_TOTAL"),
            Map.entry("ecc_dbe_agg", "DCGM_FI_DEV_ECC_DBE_AGG_TOTAL"),
            Map.entry("retired_pages_sbe", "DCGM_FI_DEV_RETIRED_SBE"),
            Map.entry("retired_pages_dbe", "DCGM_FI_DEV_RETIRED_DBE"),
            Map.entry("retired_pages_pending", "DCGM_FI_DEV_RETIRED_PENDING"),
            Map.entry("remapped_rows_uncorrectable", "DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS"),
            Map.entry("remapped_rows_correctable", "DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS"),
            Map.entry("row_remap_failure", "DCGM_FI_DEV_ROW_REMAP_FAILURE"),
            Map.entry("pcie_replays", "DCGM_FI_DEV_PCIE_REPLAY_COUNTER"),
            Map.entry("nvlink_crc_flit_errors", "DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL"),
            Map.entry("nvlink_crc_data_errors", "DCGM_FI_DEV_NVLINK_CRC_DATA_ERROR_COUNT_TOTAL"),
            Map.entry("nvlink_replay_errors", "DCGM_FI_DEV_NVLINK_REPLAY_ERROR_COUNT_TOTAL"),
            Map.entry("nvlink_recovery_errors", "DCGM_FI_DEV_NVLINK_RECOVERY_ERROR_COUNT_TOTAL"));

    /** Counts per step in metrics-service that are running totals (counters) in dcgm-exporter. */
    static final java.util.Set<String> RUNNING_TOTALS = java.util.Set.of("ecc_sbe", "ecc_dbe", "pcie_replays",
            "nvlink_crc_flit_errors", "nvlink_crc_data_errors", "nvlink_replay_errors", "nvlink_recovery_errors");

    /** metrics-service's group keys → dcgm-exporter's label names. */
    static final Map<String, String> LABELS = Map.of("node", "Hostname", "uuid", "UUID", "pciBusId", "pci_bus_id");

    /** Names older callers use for catalogue names. */
    static final Map<String, String> ALIASES = Map.of("xid_errors", "xid", "clock_throttle_reasons",
            "throttle_reasons");

    private MetricShapes() {
    }

    public static String dcgmName(String name) {
        return name == null ? null : DCGM.getOrDefault(name, name);
    }

    /** The metrics-service name of a dcgm-exporter name or an alias (the name itself otherwise). */
    public static String shortName(String name) {
        if (ALIASES.containsKey(name)) {
            return ALIASES.get(name);
        }
        return DCGM.entrySet().stream().filter(e -> e.getValue().equals(name)).map(Map.Entry::getKey).findFirst()
                .orElse(name);
    }

    public static ArrayNode metrics(JsonNode answer) {
        ArrayNode out = Json.array();
        for (JsonNode s : Json.items(answer, "series", "items", "metrics")) {
            String source = Json.text(s, "metric", "name", "__name__");
            String name = dcgmName(source);
            if (name == null) {
                continue;
            }
            ObjectNode metric = out.addObject();
            metric.put("name", name);
            ObjectNode labels = labels(s);
            metric.set("labels", labels);
            ArrayNode samples = metric.putArray("samples");
            boolean xid = "xid".equals(source);
            Double code = xid ? number(labels.path("code").asText(null)) : null;
            double total = 0;
            for (JsonNode p : Json.items(firstArray(s, "points", "samples", "values", "data"))) {
                String[] time = new String[1];
                Double value = sample(p, time);
                if (value == null) {
                    continue;
                }
                if (xid) {
                    // one sample per step with events, valued with the code (dcgm-exporter's "last Xid")
                    if (value > 0 && code != null) {
                        samples.addArray().add(time[0]).add(code);
                    }
                } else if (RUNNING_TOTALS.contains(source)) {
                    if (samples.isEmpty() && value > 0) {
                        samples.addArray().add(Instant.parse(time[0]).minusSeconds(1).toString()).add(0.0);
                    }
                    total += value;
                    samples.addArray().add(time[0]).add(total);
                } else {
                    samples.addArray().add(time[0]).add(value);
                }
            }
        }
        return out;
    }

    /**
     * The series of a run-long read at a coarse step ({@code run}, samples before {@code windowFrom} kept) joined with
     * the window's at full resolution, one series per name and labels.
     */
    public static ArrayNode join(ArrayNode run, ArrayNode window, String windowFrom) {
        Map<String, ObjectNode> byKey = new LinkedHashMap<>();
        Instant from = Instant.parse(windowFrom);
        for (JsonNode m : run) {
            ObjectNode copy = ((ObjectNode) m).deepCopy();
            ArrayNode kept = Json.array();
            for (JsonNode p : m.path("samples")) {
                if (Instant.parse(p.get(0).asText()).isBefore(from)) {
                    kept.add(p);
                }
            }
            copy.set("samples", kept);
            byKey.put(key(m), copy);
        }
        for (JsonNode m : window) {
            ObjectNode target = byKey.get(key(m));
            if (target == null) {
                byKey.put(key(m), (ObjectNode) m);
            } else {
                ((ArrayNode) target.get("samples")).addAll((ArrayNode) m.get("samples"));
            }
        }
        ArrayNode out = Json.array();
        byKey.values().forEach(out::add);
        return out;
    }

    /** How many samples the series hold. */
    public static int points(ArrayNode metrics) {
        int n = 0;
        for (JsonNode m : metrics) {
            n += m.path("samples").size();
        }
        return n;
    }

    private static String key(JsonNode m) {
        return m.path("name").asText() + m.path("labels").toString();
    }

    private static JsonNode firstArray(JsonNode s, String... names) {
        for (String n : names) {
            if (s.path(n).isArray()) {
                return s.get(n);
            }
        }
        return null;
    }

    /**
     * {@code labels} or metrics-service's {@code group} ({@code node}, {@code gpu}, {@code uuid}, {@code pciBusId},
     * {@code pod}, {@code code}), under dcgm-exporter's names.
     */
    private static ObjectNode labels(JsonNode s) {
        ObjectNode labels = Json.object();
        for (String field : new String[] {"labels", "group"}) {
            if (s.path(field).isObject()) {
                Iterator<Map.Entry<String, JsonNode>> it = s.get(field).fields();
                while (it.hasNext()) {
                    Map.Entry<String, JsonNode> e = it.next();
                    if (e.getValue().isValueNode() && !e.getValue().isNull()) {
                        labels.put(LABELS.getOrDefault(e.getKey(), e.getKey()), e.getValue().asText());
                    }
                }
            }
        }
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

    /** A point's value (null when unreadable or not finite), its RFC 3339 time in {@code time[0]}. */
    private static Double sample(JsonNode p, String[] time) {
        JsonNode t;
        JsonNode v;
        if (p.isArray() && p.size() == 2) {
            t = p.get(0);
            v = p.get(1);
        } else if (p.isObject()) {
            t = p.has("time") ? p.get("time") : p.path("t");
            v = p.has("value") ? p.get("value") : p.path("v");
        } else {
            return null;
        }
        time[0] = Json.time(t);
        Double value = v.isNumber() ? Double.valueOf(v.asDouble()) : number(v.asText(null));
        return time[0] == null || value == null || value.isNaN() || value.isInfinite() ? null : value;
    }

    private static Double number(String s) {
        try {
            return s == null ? null : Double.valueOf(s.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
