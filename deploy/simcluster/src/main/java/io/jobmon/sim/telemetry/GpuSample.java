package io.jobmon.sim.telemetry;

/**
 * What one GPU reads at one moment, in dcgm-exporter's units: percent for utilisation, MiB for memory, W, C, MHz,
 * ratios 0..1 for the profiling (DCP) fields, bytes per second for PCIe.
 *
 * @param throttleReasons the NVML clock-throttle bitmask (0x20 SW thermal, 0x40 HW thermal, 0x04 SW power cap)
 */
public record GpuSample(double util, double memCopyUtil, int fbUsedMiB, double powerW, double tempC,
        double memTempC, int smClockMHz, int memClockMHz, long throttleReasons, double smActive, double smOccupancy,
        double tensorActive, double dramActive, double pcieTxBytes, double pcieRxBytes) {
}
