package io.jobmon.metrics.store;

import java.util.Set;

/**
 * Counters are counters: a series is a counter when the exporter declares it so (dcgm-exporter's counters CSV,
 * node_exporter's {@code _total}), so that rates and increases handle resets; everything else is a gauge.
 */
public final class MetricKinds {

    private static final Set<String> DCGM_COUNTERS = Set.of(
            "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", "DCGM_FI_DEV_PCIE_REPLAY_COUNTER",
            "DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL", "DCGM_FI_DEV_POWER_VIOLATION", "DCGM_FI_DEV_THERMAL_VIOLATION",
            "DCGM_FI_DEV_SYNC_BOOST_VIOLATION", "DCGM_FI_DEV_BOARD_LIMIT_VIOLATION", "DCGM_FI_DEV_LOW_UTIL_VIOLATION",
            "DCGM_FI_DEV_RELIABILITY_VIOLATION", "DCGM_FI_DEV_ECC_SBE_VOL_TOTAL", "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL",
            "DCGM_FI_DEV_ECC_SBE_AGG_TOTAL", "DCGM_FI_DEV_ECC_DBE_AGG_TOTAL", "DCGM_FI_DEV_RETIRED_SBE",
            "DCGM_FI_DEV_RETIRED_DBE", "DCGM_FI_DEV_RETIRED_PENDING", "DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS",
            "DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS", "DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL",
            "DCGM_FI_DEV_NVLINK_CRC_DATA_ERROR_COUNT_TOTAL", "DCGM_FI_DEV_NVLINK_REPLAY_ERROR_COUNT_TOTAL",
            "DCGM_FI_DEV_NVLINK_RECOVERY_ERROR_COUNT_TOTAL");

    private MetricKinds() {
    }

    public static boolean isCounter(String name) {
        if (name.startsWith("DCGM_")) {
            return DCGM_COUNTERS.contains(name);
        }
        return name.endsWith("_total") || name.endsWith("_count") || name.endsWith("_sum") || name.endsWith("_bucket");
    }
}
