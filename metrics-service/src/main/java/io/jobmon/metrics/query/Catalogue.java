package io.jobmon.metrics.query;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The metrics a chart can ask for by short name (api.md), what they are made of, and how: a GPU metric comes from
 * dcgm-exporter per GPU, a node metric from node_exporter per node. A metric adds up its sources per entity
 * (with a sign: memory used = total - available); counters become rates per second, or increases per step for
 * error counts. Names as dcgm-exporter's etc/default-counters.csv writes them
 * (https://github.com/NVIDIA/dcgm-exporter/blob/main/etc/default-counters.csv; ECC, retired pages, NVLink errors and
 * violations are commented out there, enabled by a site's counters file); remapped rows, retired pages and the
 * life-long ECC totals are levels and shown as they are.
 */
public final class Catalogue {

    /** Per GPU (dcgm-exporter), per node (node_exporter) or per container of a pod (the kubelet's cAdvisor). */
    public enum Scope {
        GPU, NODE, CONTAINER
    }

    /** How a source's samples become values: as they are, a rate per second, or an increase per step. */
    public enum Transform {
        VALUE, RATE, INCREASE
    }

    /** A source series and its coefficient in the sum. */
    public record Source(String metric, double factor, Transform transform, Predicate<Map<String, String>> filter) {
        static Source of(String metric) {
            return new Source(metric, 1, Transform.VALUE, l -> true);
        }
    }

    /**
     * @param special a computation that is not a sum of sources ({@code cpu_util}, {@code xid})
     * @param inJob the container metric a job's chart answers this node metric with ({@link ContainerMetrics}), or null
     */
    public record Entry(String name, String unit, Scope scope, String exporter, List<Source> sources,
            String special, String inJob) {
        Entry(String name, String unit, Scope scope, String exporter, List<Source> sources, String special) {
            this(name, unit, scope, exporter, sources, special, null);
        }

        /** This entry under another name (a node metric a job's chart answers from its containers). */
        Entry as(String otherName) {
            return new Entry(otherName, unit, scope, exporter, sources, special, null);
        }
    }

    private static final Predicate<Map<String, String>> REAL_NIC = l -> {
        String d = l.getOrDefault("device", "");
        return !(d.equals("lo") || d.startsWith("veth") || d.startsWith("docker") || d.startsWith("cali")
                || d.startsWith("flannel") || d.startsWith("cni") || d.startsWith("virbr") || d.startsWith("br-"));
    };

    private static final Map<String, Entry> ENTRIES = new LinkedHashMap<>();

    static {
        gpu("gpu_util", "%", Source.of("DCGM_FI_DEV_GPU_UTIL"));
        gpu("gpu_mem_used", "MiB", Source.of("DCGM_FI_DEV_FB_USED"));
        gpu("gpu_mem_total", "MiB", Source.of("DCGM_FI_DEV_FB_USED"),
                Source.of("DCGM_FI_DEV_FB_FREE"), Source.of("DCGM_FI_DEV_FB_RESERVED"));
        gpu("gpu_mem_copy_util", "%", Source.of("DCGM_FI_DEV_MEM_COPY_UTIL"));
        gpu("gpu_temp", "°C", Source.of("DCGM_FI_DEV_GPU_TEMP"));
        gpu("gpu_mem_temp", "°C", Source.of("DCGM_FI_DEV_MEMORY_TEMP"));
        gpu("gpu_power", "W", Source.of("DCGM_FI_DEV_POWER_USAGE"));
        gpu("sm_active", "ratio", Source.of("DCGM_FI_PROF_SM_ACTIVE"));
        gpu("sm_occupancy", "ratio", Source.of("DCGM_FI_PROF_SM_OCCUPANCY"));
        gpu("tensor_active", "ratio", Source.of("DCGM_FI_PROF_PIPE_TENSOR_ACTIVE"));
        gpu("gr_engine_active", "ratio", Source.of("DCGM_FI_PROF_GR_ENGINE_ACTIVE"));
        gpu("dram_active", "ratio", Source.of("DCGM_FI_PROF_DRAM_ACTIVE"));
        gpu("ecc_sbe", "errors",
                new Source("DCGM_FI_DEV_ECC_SBE_VOL_TOTAL", 1, Transform.INCREASE, l -> true));
        gpu("ecc_dbe", "errors",
                new Source("DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", 1, Transform.INCREASE, l -> true));
        gpu("ecc_sbe_agg", "errors",
                Source.of("DCGM_FI_DEV_ECC_SBE_AGG_TOTAL"));
        gpu("ecc_dbe_agg", "errors",
                Source.of("DCGM_FI_DEV_ECC_DBE_AGG_TOTAL"));
        gpu("retired_pages_sbe", "pages", Source.of("DCGM_FI_DEV_RETIRED_SBE"));
        gpu("retired_pages_dbe", "pages", Source.of("DCGM_FI_DEV_RETIRED_DBE"));
        gpu("retired_pages_pending", "pages", Source.of("DCGM_FI_DEV_RETIRED_PENDING"));
        gpu("remapped_rows_uncorrectable", "rows",
                Source.of("DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS"));
        gpu("remapped_rows_correctable", "rows",
                Source.of("DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS"));
        gpu("row_remap_failure", "bool", Source.of("DCGM_FI_DEV_ROW_REMAP_FAILURE"));
        ENTRIES.put("xid", new Entry("xid", "events", Scope.GPU, "dcgm-exporter", List.of(), "xid"));
        gpu("nvlink_crc_flit_errors", "errors",
                new Source("DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL", 1, Transform.INCREASE, l -> true));
        gpu("nvlink_crc_data_errors", "errors",
                new Source("DCGM_FI_DEV_NVLINK_CRC_DATA_ERROR_COUNT_TOTAL", 1, Transform.INCREASE, l -> true));
        gpu("nvlink_replay_errors", "errors",
                new Source("DCGM_FI_DEV_NVLINK_REPLAY_ERROR_COUNT_TOTAL", 1, Transform.INCREASE, l -> true));
        gpu("nvlink_recovery_errors", "errors",
                new Source("DCGM_FI_DEV_NVLINK_RECOVERY_ERROR_COUNT_TOTAL", 1, Transform.INCREASE, l -> true));
        gpu("nvlink_tx", "B/s", Source.of("DCGM_FI_PROF_NVLINK_TX_BYTES"));
        gpu("nvlink_rx", "B/s", Source.of("DCGM_FI_PROF_NVLINK_RX_BYTES"));
        gpu("pcie_tx", "B/s", Source.of("DCGM_FI_PROF_PCIE_TX_BYTES"));
        gpu("pcie_rx", "B/s", Source.of("DCGM_FI_PROF_PCIE_RX_BYTES"));
        gpu("pcie_replays", "events",
                new Source("DCGM_FI_DEV_PCIE_REPLAY_COUNTER", 1, Transform.INCREASE, l -> true));
        gpu("sm_clock", "MHz", Source.of("DCGM_FI_DEV_SM_CLOCK"));
        gpu("mem_clock", "MHz", Source.of("DCGM_FI_DEV_MEM_CLOCK"));
        gpu("throttle_reasons", "bitmask",
                Source.of("DCGM_FI_DEV_CLOCK_THROTTLE_REASONS"), Source.of("DCGM_FI_DEV_CLOCKS_EVENT_REASONS"));
        gpu("power_throttle", "ratio",
                new Source("DCGM_FI_DEV_POWER_VIOLATION", 1e-9, Transform.RATE, l -> true));
        gpu("thermal_throttle", "ratio",
                new Source("DCGM_FI_DEV_THERMAL_VIOLATION", 1e-9, Transform.RATE, l -> true));
        ENTRIES.put("cpu_util", new Entry("cpu_util", "%", Scope.NODE, "node-exporter",
                List.of(new Source("node_cpu_seconds_total", 1, Transform.RATE, l -> "idle".equals(l.get("mode")))),
                "cpu_util", "container_cpu"));
        ENTRIES.put("mem_used", new Entry("mem_used", "B", Scope.NODE, "node-exporter",
                List.of(Source.of("node_memory_MemTotal_bytes"),
                        new Source("node_memory_MemAvailable_bytes", -1, Transform.VALUE, l -> true)),
                null, "container_mem_working_set"));
        node("mem_total", "B", Source.of("node_memory_MemTotal_bytes"));
        ENTRIES.put("net_rx", new Entry("net_rx", "B/s", Scope.NODE, "node-exporter",
                List.of(new Source("node_network_receive_bytes_total", 1, Transform.RATE, REAL_NIC)), null,
                "container_net_rx"));
        ENTRIES.put("net_tx", new Entry("net_tx", "B/s", Scope.NODE, "node-exporter",
                List.of(new Source("node_network_transmit_bytes_total", 1, Transform.RATE, REAL_NIC)), null,
                "container_net_tx"));
        node("ib_rx", "B/s",
                new Source("node_infiniband_port_data_received_bytes_total", 1, Transform.RATE, l -> true));
        node("ib_tx", "B/s",
                new Source("node_infiniband_port_data_transmitted_bytes_total", 1, Transform.RATE, l -> true));
        ContainerMetrics.ENTRIES.forEach(e -> ENTRIES.put(e.name(), e));
    }

    private Catalogue() {
    }

    private static void gpu(String name, String unit, Source... sources) {
        ENTRIES.put(name, new Entry(name, unit, Scope.GPU, "dcgm-exporter", List.of(sources), null));
    }

    private static void node(String name, String unit, Source... sources) {
        ENTRIES.put(name, new Entry(name, unit, Scope.NODE, "node-exporter", List.of(sources), null));
    }

    public static Entry get(String name) {
        return ENTRIES.get(name);
    }

    public static List<Entry> all() {
        return List.copyOf(ENTRIES.values());
    }
}
