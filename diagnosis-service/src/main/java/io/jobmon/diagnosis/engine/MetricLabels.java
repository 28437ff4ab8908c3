package io.jobmon.diagnosis.engine;

import java.util.Map;

/**
 * How metric evidence names a GPU and a series for a person: {@code GPU 3} of its node when the labels say which
 * (never {@code null} or {@code ?} for a part they do not say), and a series by its human label with the exporter's
 * raw name beside it ({@code Xid 错误（DCGM_FI_DEV_XID_ERRORS）}).
 */
final class MetricLabels {

    /** The series the engine quotes: English and Chinese labels, as metrics-service's catalogue titles them. */
    private static final Map<String, Localized> LABELS = Map.ofEntries(
            Map.entry("DCGM_FI_DEV_GPU_UTIL", new Localized("GPU utilisation", "GPU 利用率")),
            Map.entry("DCGM_FI_PROF_SM_ACTIVE", new Localized("SM activity", "SM 活跃度")),
            Map.entry("DCGM_FI_PROF_GR_ENGINE_ACTIVE", new Localized("graphics engine activity", "图形引擎活跃度")),
            Map.entry("DCGM_FI_DEV_XID_ERRORS", new Localized("last Xid error", "最近的 Xid 错误")),
            Map.entry("DCGM_FI_DEV_GPU_TEMP", new Localized("GPU temperature", "GPU 温度")),
            Map.entry("DCGM_FI_DEV_SM_CLOCK", new Localized("SM clock", "SM 时钟")),
            Map.entry("DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", new Localized("double-bit ECC errors", "双比特 ECC 错误")),
            Map.entry("DCGM_FI_DEV_ECC_DBE_AGG_TOTAL", new Localized("double-bit ECC errors (lifetime)",
                    "双比特 ECC 错误（累计）")),
            Map.entry("DCGM_FI_DEV_ROW_REMAP_FAILURE", new Localized("row remapping failure", "显存行重映射失败")),
            Map.entry("DCGM_FI_DEV_PCIE_REPLAY_COUNTER", new Localized("PCIe replays", "PCIe 重放次数")),
            Map.entry("DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL", new Localized("NVLink CRC errors",
                    "NVLink CRC 错误")),
            Map.entry("DCGM_FI_DEV_CLOCK_THROTTLE_REASONS", new Localized("throttle reasons", "降频原因")),
            Map.entry("DCGM_FI_DEV_CLOCKS_EVENT_REASONS", new Localized("throttle reasons", "降频原因")));

    private MetricLabels() {
    }

    /** A series: its label and raw name ({@code GPU utilisation (DCGM_FI_DEV_GPU_UTIL)}), or the raw name. */
    static Localized series(String name) {
        Localized label = LABELS.get(name);
        return label == null ? Localized.of(name)
                : new Localized(label.en() + " (" + name + ")", label.zh() + "（" + name + "）");
    }

    /**
     * A GPU by its key ({@code node/gpu}, either part possibly unknown: {@code null} or {@code ?}): {@code GPU
     * node/3}, {@code GPU 3}, {@code a GPU of node} / {@code node 上的 GPU}, or {@code a GPU} / {@code GPU}.
     */
    static Localized gpu(String key) {
        int slash = key == null ? -1 : key.lastIndexOf('/');
        String host = slash < 0 ? null : known(key.substring(0, slash));
        String gpu = known(slash < 0 ? key : key.substring(slash + 1));
        if (gpu != null) {
            String name = host == null ? gpu : host + "/" + gpu;
            return Localized.of("GPU " + name);
        }
        return host == null ? new Localized("a GPU", "GPU") : new Localized("a GPU of " + host, host + " 上的 GPU");
    }

    /** The node of a GPU key ({@code node/gpu}, or a node alone), or null when the labels do not say. */
    static String host(String key) {
        int slash = key.lastIndexOf('/');
        return known(slash > 0 ? key.substring(0, slash) : key);
    }

    private static String known(String part) {
        return part == null || part.isBlank() || part.equals("null") || part.equals("?") ? null : part;
    }
}
