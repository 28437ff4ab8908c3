package io.jobmon.sim.cluster;

import java.util.Locale;
import java.util.Map;

/**
 * A GPU product as NVML names it (dcgm-exporter's {@code modelName}, GPU feature discovery's
 * {@code nvidia.com/gpu.product} with blanks as dashes) and the figures its metrics move within.
 *
 * @param memoryMiB framebuffer size (FB_FREE + FB_USED + FB_RESERVED)
 * @param maxPowerW board power limit
 * @param maxSmClockMHz SM boost clock
 * @param memClockMHz memory clock
 */
public record GpuModel(String shortName, String product, int memoryMiB, int maxPowerW, int maxSmClockMHz,
        int memClockMHz) {

    private static final Map<String, GpuModel> KNOWN = Map.of(
            "A800", new GpuModel("A800", "NVIDIA A800-SXM4-80GB", 81920, 400, 1410, 1593),
            "A100", new GpuModel("A100", "NVIDIA A100-SXM4-80GB", 81920, 400, 1410, 1593),
            "H100", new GpuModel("H100", "NVIDIA H100 80GB HBM3", 81559, 700, 1980, 2619),
            "H800", new GpuModel("H800", "NVIDIA H800", 81559, 700, 1980, 2619),
            "H20", new GpuModel("H20", "NVIDIA H20", 97871, 500, 1980, 2619),
            "L40S", new GpuModel("L40S", "NVIDIA L40S", 46068, 350, 2520, 9001),
            "V100", new GpuModel("V100", "Tesla V100-SXM2-32GB", 32768, 300, 1530, 877));

    /** A known model by its short name (A800, H100, ...); an unknown one gets an 80 GB A100's figures. */
    public static GpuModel of(String shortName) {
        String key = shortName.toUpperCase(Locale.ROOT);
        GpuModel m = KNOWN.get(key);
        return m != null ? m : new GpuModel(key, "NVIDIA " + key, 81920, 400, 1410, 1593);
    }

    /** The {@code nvidia.com/gpu.product} label value GPU feature discovery writes. */
    public String productLabel() {
        return product.replace(' ', '-');
    }
}
