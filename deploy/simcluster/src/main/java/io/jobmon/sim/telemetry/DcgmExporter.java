package io.jobmon.sim.telemetry;

import io.jobmon.sim.cluster.GpuDevice;
import io.jobmon.sim.cluster.SimNode;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * A node's dcgm-exporter {@code /metrics}, rendered as dcgm-exporter 4.x renders it (rendermetrics' gpu template):
 * per counter {@code # HELP}/{@code # TYPE}, then per GPU
 * {@code FIELD{gpu="0",UUID="GPU-...",pci_bus_id="...",device="nvidia0",modelName="...",Hostname="node",<label fields>,<attributes>} value}
 * with labels and attributes in key order; the attributes are {@code container}, {@code namespace}, {@code pod} while a
 * pod's container holds the GPU, and {@code err_code}/{@code err_msg} on XID_ERRORS. Integer fields print as
 * integers, double fields (power, the DCP ratios) with six decimals, as its toString does.
 */
public final class DcgmExporter {

    static final String DRIVER = "535.183.06";

    private static final Map<Integer, String> XID_TEXT = Map.ofEntries(Map.entry(0, "No Error"),
            Map.entry(13, "Graphics Engine Exception"), Map.entry(31, "GPU memory page fault"),
            Map.entry(43, "GPU stopped processing"),
            Map.entry(45, "Preemptive cleanup, due to previous errors -- Most likely to see when running multiple cuda"),
            Map.entry(48, "Double Bit ECC Error"), Map.entry(63, "ECC page retirement or row remapping recording event"),
            Map.entry(64, "ECC page retirement or row remapper recording failure"), Map.entry(74, "NVLINK Error"),
            Map.entry(79, "GPU has fallen off the bus"), Map.entry(92, "High single-bit ECC error rate"),
            Map.entry(94, "Contained ECC error"), Map.entry(95, "Uncontained ECC error"));

    private DcgmExporter() {
    }

    public static String render(SimNode node, Instant now, Random random) {
        int n = node.gpus().size();
        GpuSample[] samples = new GpuSample[n];
        for (int i = 0; i < n; i++) {
            GpuDevice g = node.gpus().get(i);
            Duration since = Duration.between(g.loadSince(), now);
            samples[i] = g.load().sample(g.model(), since.isNegative() ? Duration.ZERO : since, random);
        }
        Map<String, String> labelFields = new TreeMap<>();
        DcgmCounters.all().stream().filter(c -> "label".equals(c.type()))
                .forEach(c -> labelFields.put(c.field(), "DCGM_FI_DRIVER_VERSION".equals(c.field()) ? DRIVER : ""));
        StringBuilder out = new StringBuilder(16_384);
        for (DcgmCounters.Counter c : DcgmCounters.all()) {
            if ("label".equals(c.type())) {
                continue;
            }
            out.append("# HELP ").append(c.field()).append(' ').append(c.help()).append('\n');
            out.append("# TYPE ").append(c.field()).append(' ').append(c.type()).append('\n');
            for (int i = 0; i < n; i++) {
                GpuDevice g = node.gpus().get(i);
                out.append(c.field()).append("{gpu=\"").append(g.index()).append("\",UUID=\"").append(g.uuid())
                        .append("\",pci_bus_id=\"").append(g.pciBusId()).append("\",device=\"nvidia").append(g.index())
                        .append("\",modelName=\"").append(Exposition.escape(g.model().product())).append("\",Hostname=\"")
                        .append(node.name()).append('"');
                labelFields.forEach((k, v) -> out.append(',').append(k).append("=\"").append(v).append('"'));
                Map<String, String> attributes = new TreeMap<>();
                if (g.holder() != null) {
                    attributes.put("container", g.holder().container());
                    attributes.put("namespace", g.holder().namespace());
                    attributes.put("pod", g.holder().pod());
                }
                if ("DCGM_FI_DEV_XID_ERRORS".equals(c.field())) {
                    attributes.put("err_code", String.valueOf(g.lastXid()));
                    attributes.put("err_msg", XID_TEXT.getOrDefault(g.lastXid(), "Unknown Error"));
                }
                attributes.forEach((k, v) -> out.append(',').append(k).append("=\"").append(Exposition.escape(v)).append('"'));
                out.append("} ").append(value(c.field(), g, samples[i], now)).append('\n');
            }
        }
        return out.toString();
    }

    private static String value(String field, GpuDevice g, GpuSample s, Instant now) {
        return switch (field) {
            case "DCGM_FI_DEV_SM_CLOCK" -> String.valueOf(s.smClockMHz());
            case "DCGM_FI_DEV_MEM_CLOCK" -> String.valueOf(s.memClockMHz());
            case "DCGM_FI_DEV_MEMORY_TEMP" -> String.valueOf(Math.round(s.memTempC()));
            case "DCGM_FI_DEV_GPU_TEMP" -> String.valueOf(Math.round(s.tempC()));
            case "DCGM_FI_DEV_POWER_USAGE" -> String.format(java.util.Locale.ROOT, "%f", s.powerW());
            case "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION" -> String.valueOf(g.energyMillijoules(now));
            case "DCGM_FI_DEV_GPU_UTIL" -> String.valueOf(Math.round(s.util()));
            case "DCGM_FI_DEV_MEM_COPY_UTIL" -> String.valueOf(Math.round(s.memCopyUtil()));
            case "DCGM_FI_DEV_XID_ERRORS" -> String.valueOf(g.lastXid());
            case "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS" -> String.valueOf(s.throttleReasons());
            case "DCGM_FI_DEV_FB_FREE" -> String.valueOf(g.model().memoryMiB() - RESERVED - s.fbUsedMiB());
            case "DCGM_FI_DEV_FB_USED" -> String.valueOf(s.fbUsedMiB());
            case "DCGM_FI_DEV_FB_RESERVED" -> String.valueOf(RESERVED);
            case "DCGM_FI_DEV_ECC_SBE_VOL_TOTAL" -> String.valueOf(g.eccSbeVolatile());
            case "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL" -> String.valueOf(g.eccDbeVolatile());
            case "DCGM_FI_DEV_ECC_SBE_AGG_TOTAL" -> String.valueOf(g.eccSbeAggregate());
            case "DCGM_FI_DEV_ECC_DBE_AGG_TOTAL" -> String.valueOf(g.eccDbeAggregate());
            case "DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL" -> String.valueOf(g.nvlinkBytes(now));
            case "DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS" -> String.valueOf(g.uncorrectableRemappedRows());
            case "DCGM_FI_PROF_GR_ENGINE_ACTIVE" -> String.format(java.util.Locale.ROOT, "%f", s.smActive());
            case "DCGM_FI_PROF_SM_ACTIVE" -> String.format(java.util.Locale.ROOT, "%f", s.smActive());
            case "DCGM_FI_PROF_SM_OCCUPANCY" -> String.format(java.util.Locale.ROOT, "%f", s.smOccupancy());
            case "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE" -> String.format(java.util.Locale.ROOT, "%f", s.tensorActive());
            case "DCGM_FI_PROF_DRAM_ACTIVE" -> String.format(java.util.Locale.ROOT, "%f", s.dramActive());
            case "DCGM_FI_PROF_PCIE_TX_BYTES" -> String.format(java.util.Locale.ROOT, "%f", s.pcieTxBytes());
            case "DCGM_FI_PROF_PCIE_RX_BYTES" -> String.format(java.util.Locale.ROOT, "%f", s.pcieRxBytes());
            // NCCL's all-reduce inside the node: about nine times the PCIe traffic at full load, ~0 when stalled
            case "DCGM_FI_PROF_NVLINK_TX_BYTES" -> String.format(java.util.Locale.ROOT, "%f", s.pcieTxBytes() * 9);
            case "DCGM_FI_PROF_NVLINK_RX_BYTES" -> String.format(java.util.Locale.ROOT, "%f", s.pcieRxBytes() * 10.5);
            default -> "0";
        };
    }

    /** Framebuffer the driver keeps for itself (MiB). */
    private static final int RESERVED = 573;
}
