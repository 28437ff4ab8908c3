package io.jobmon.diagnosis.engine;

import java.time.Instant;
import java.util.List;

/**
 * Per-GPU findings of {@link MetricAnalysis}.
 *
 * @param util     one summary per GPU utilisation series
 * @param throttle one summary per GPU with clock-throttle, temperature or clock data
 * @param xids     Xid codes reported by {@code DCGM_FI_DEV_XID_ERRORS}
 * @param ecc      increases of the double-bit ECC counters
 * @param stopped  hosts whose series stopped while others went on
 */
record MetricReport(List<Util> util, List<Throttle> throttle, List<GpuEvent> xids, List<GpuEvent> ecc,
                    List<GpuEvent> stopped) {

    /**
     * GPU utilisation of one GPU.
     *
     * @param gpu         {@code host/gpu}
     * @param pod         pod label
     * @param samples     sample count
     * @param mean        mean utilisation
     * @param idleSince   start of the trailing run of idle samples, or null
     * @param idleSamples length of that run
     * @param busySince   start of the trailing run of samples at 99 % or more (a spinning kernel), or null
     * @param transitions busy/starved alternations (saw-tooth)
     * @param sawtooth    oscillates between busy and starved through the window
     * @param first       first sample time
     * @param last        last sample time
     */
    record Util(String gpu, String pod, int samples, double mean, Instant idleSince, int idleSamples,
                Instant busySince, int transitions, boolean sawtooth, Instant first, Instant last) {
    }

    /**
     * Clock-throttling facts of one GPU.
     *
     * @param gpu             {@code host/gpu}
     * @param pod             pod label
     * @param samples         throttle-reason samples
     * @param thermalSamples  samples with HW slowdown, SW/HW thermal or power-brake bits
     * @param powerCapSamples samples with only power-cap bits
     * @param firstThermal    first sample with a thermal/hardware bit
     * @param mask            OR of all reasons seen
     * @param maxTemp         highest temperature, or NaN
     * @param tempRise        late minus early median temperature, or NaN
     * @param clockRatio      late over early median SM clock, or NaN
     */
    record Throttle(String gpu, String pod, int samples, int thermalSamples, int powerCapSamples,
                    Instant firstThermal, long mask, double maxTemp, double tempRise, double clockRatio) {
    }

    /**
     * A dated per-GPU (or per-host) event.
     *
     * @param gpu   {@code host/gpu} or host
     * @param pod   pod label
     * @param code  Xid code, counter increase, or 0
     * @param time  when
     */
    record GpuEvent(String gpu, String pod, double code, Instant time) {
    }

    static MetricReport empty() {
        return new MetricReport(List.of(), List.of(), List.of(), List.of(), List.of());
    }
}
