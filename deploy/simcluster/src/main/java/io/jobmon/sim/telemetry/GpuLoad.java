package io.jobmon.sim.telemetry;

import io.jobmon.sim.cluster.GpuModel;
import java.time.Duration;
import java.util.Random;

/**
 * How a GPU behaves under what runs on it, as a function of the time since the load began. Every reading wobbles a
 * little, as real ones do.
 */
public interface GpuLoad {

    GpuSample sample(GpuModel model, Duration since, Random random);

    /** Nothing runs: clocks idle, ~60 W on an 80 GB part, 30-something degrees. */
    GpuLoad IDLE = (m, since, r) -> new GpuSample(0, 0, 0, m.maxPowerW() * 0.15 + r.nextDouble() * 3,
            33 + r.nextInt(3), 38 + r.nextInt(3), 210, m.memClockMHz(), 0x1, 0, 0, 0, 0, 1.2e5, 1.0e5);

    /** A training step loop: util around {@code util} percent, device memory held at {@code fbMiB}. */
    static GpuLoad training(double util, int fbMiB) {
        return (m, since, r) -> busy(m, r, util + gauss(r, 3), fbMiB + r.nextInt(700) - 350, Double.NaN, m.maxSmClockMHz(), 0);
    }

    /** Ranks wait in a collective that never completes: memory held, util at 0, power at idle. */
    static GpuLoad stalled(int fbMiB) {
        return (m, since, r) -> new GpuSample(0, 0, fbMiB, m.maxPowerW() * 0.2 + r.nextDouble() * 4, 41 + r.nextInt(2),
                46, m.maxSmClockMHz(), m.memClockMHz(), 0, 0, 0, 0, 0, 1.0e5, 1.0e5);
    }

    /**
     * The GPU waits on the input pipeline: one short burst of work every {@code period}, idle in between (the
     * saw-tooth of a data-loading bottleneck).
     */
    static GpuLoad starved(int fbMiB, Duration period) {
        return (m, since, r) -> {
            double phase = (since.toMillis() % period.toMillis()) / (double) period.toMillis();
            double util = phase < 0.2 ? 85 + gauss(r, 6) : 4 + r.nextDouble() * 8;
            return busy(m, r, util, fbMiB + r.nextInt(400) - 200, Double.NaN, m.maxSmClockMHz(), 0);
        };
    }

    /**
     * Heats up from 71 C to 90 C over {@code rampUp}; past 84 C the clocks are thermally throttled (0x20, then with
     * the HW slowdown 0x60 past 88 C) and the SM clock falls towards 63 % of its maximum while util stays high.
     */
    static GpuLoad overheating(double util, int fbMiB, Duration rampUp) {
        return (m, since, r) -> {
            double f = Math.min(1, since.toMillis() / (double) Math.max(1, rampUp.toMillis()));
            double temp = 71 + 19 * f + gauss(r, 0.6);
            long reasons = temp >= 88 ? 0x60 : temp >= 84 ? 0x20 : 0;
            double slow = temp >= 84 ? Math.min(1, (temp - 84) / 6) : 0;
            int clock = (int) Math.round(m.maxSmClockMHz() * (1 - 0.37 * slow));
            return busy(m, r, util + gauss(r, 2), fbMiB + r.nextInt(400) - 200, temp, clock, reasons);
        };
    }

    /** The device fell off the bus or hit an uncorrectable error: nothing runs any more, memory still mapped. */
    static GpuLoad faulted(int fbMiB) {
        return (m, since, r) -> new GpuSample(0, 0, fbMiB, m.maxPowerW() * 0.17, 45, 50, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    /** @param temp the temperature, or NaN: follows the load (55 C idle-ish to 72 C flat out) */
    private static GpuSample busy(GpuModel m, Random r, double util, int fbMiB, double temp, int smClock, long reasons) {
        double u = Math.max(0, Math.min(100, util));
        double load = u / 100;
        double power = m.maxPowerW() * (0.2 + 0.72 * load) + gauss(r, 6);
        double t = Double.isNaN(temp) ? 55 + 17 * load + gauss(r, 1) : temp;
        return new GpuSample(Math.round(u), Math.round(u * 0.45), Math.max(0, Math.min(m.memoryMiB() - 600, fbMiB)),
                Math.max(0, Math.min(m.maxPowerW(), power)), Math.round(t), Math.round(t + 6), smClock,
                m.memClockMHz(), reasons, clamp(load * 0.93 + gauss(r, 0.02)), clamp(load * 0.41 + gauss(r, 0.02)),
                clamp(load * 0.38 + gauss(r, 0.03)), clamp(load * 0.29 + gauss(r, 0.02)), 2.1e9 * load + 1e6,
                1.8e9 * load + 1e6);
    }

    private static double clamp(double v) {
        return Math.max(0, Math.min(1, v));
    }

    private static double gauss(Random r, double sd) {
        return r.nextGaussian() * sd;
    }
}
