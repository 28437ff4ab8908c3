package io.jobmon.metrics.bench;

import io.jobmon.metrics.remotewrite.prompb.Remote;
import io.jobmon.metrics.remotewrite.prompb.Types;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.xerial.snappy.Snappy;

/**
 * The benchmark's remote-write stream, built once and replayed to every system: {@code nodes} nodes × 8 GPUs × 30
 * dcgm-exporter metrics (the labels dcgm-exporter writes, a pod per 4 GPUs), a sample every 15 s, in time order,
 * as snappy-compressed {@code prometheus.WriteRequest}s of {@code tsPerRequest} timestamps × a slice of the series.
 */
final class Stream {

    static final String[] METRICS = {"DCGM_FI_DEV_SM_CLOCK", "DCGM_FI_DEV_MEM_CLOCK", "DCGM_FI_DEV_MEMORY_TEMP",
        "DCGM_FI_DEV_GPU_TEMP", "DCGM_FI_DEV_POWER_USAGE", "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION",
        "DCGM_FI_DEV_PCIE_REPLAY_COUNTER", "DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_DEV_MEM_COPY_UTIL", "DCGM_FI_DEV_ENC_UTIL",
        "DCGM_FI_DEV_DEC_UTIL", "DCGM_FI_DEV_XID_ERRORS", "DCGM_FI_DEV_FB_FREE", "DCGM_FI_DEV_FB_USED",
        "DCGM_FI_DEV_FB_RESERVED", "DCGM_FI_DEV_ECC_SBE_VOL_TOTAL", "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL",
        "DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL", "DCGM_FI_DEV_VGPU_LICENSE_STATUS", "DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS",
        "DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS", "DCGM_FI_DEV_ROW_REMAP_FAILURE", "DCGM_FI_PROF_GR_ENGINE_ACTIVE",
        "DCGM_FI_PROF_SM_ACTIVE", "DCGM_FI_PROF_SM_OCCUPANCY", "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE",
        "DCGM_FI_PROF_DRAM_ACTIVE", "DCGM_FI_PROF_PCIE_TX_BYTES", "DCGM_FI_PROF_PCIE_RX_BYTES",
        "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS"};
    static final int GPUS = 8;

    /** One series: its labels (name first) and its node/GPU for the values. */
    record Series(Types.Label[] labels, int node, int gpu, int metric) {
    }

    final List<byte[]> bodies = new ArrayList<>();
    long samples;

    static String node(String prefix, int n) {
        return prefix + "-" + String.format("%03d", n);
    }

    static String pod(String jobPrefix, int n, int gpu) {
        return jobPrefix + "-" + String.format("%03d", n) + "-worker-" + (gpu / 4);
    }

    static List<Series> series(String prefix, String jobPrefix, int nodes) {
        List<Series> out = new ArrayList<>();
        for (int n = 0; n < nodes; n++) {
            for (int g = 0; g < GPUS; g++) {
                for (int m = 0; m < METRICS.length; m++) {
                    String[][] kv = {{"__name__", METRICS[m]}, {"DCGM_FI_DRIVER_VERSION", "535.183.01"},
                        {"Hostname", node(prefix, n)}, {"UUID", String.format("GPU-%08x-5d1e-4c8a-9e5b-%012x", n, g)},
                        {"container", "pytorch"}, {"device", "nvidia" + g}, {"gpu", String.valueOf(g)},
                        {"instance", node(prefix, n) + ":9400"}, {"job", "dcgm-exporter"},
                        {"modelName", "NVIDIA A100-SXM4-80GB"}, {"namespace", "team-nlp"},
                        {"pci_bus_id", String.format("00000000:%02X:00.0", 7 + g * 8)}, {"pod", pod(jobPrefix, n, g)}};
                    Types.Label[] labels = new Types.Label[kv.length];
                    for (int i = 0; i < kv.length; i++) {
                        labels[i] = Types.Label.newBuilder().setName(kv[i][0]).setValue(kv[i][1]).build();
                    }
                    out.add(new Series(labels, n, g, m));
                }
            }
        }
        return out;
    }

    /** A plausible value of a series at step {@code i} (counters grow, utilisation wanders). */
    static double value(Series s, long i) {
        long h = (s.node() * 31L + s.gpu() * 7L + i * 13L) % 11;
        return switch (s.metric()) {
            case 5 -> 8_437_462_913.0 + i * 4_100_000 + h * 1000;
            case 7 -> 88 + h;
            case 13 -> 61_000 + (i % 40) * 16;
            case 17 -> 120_394_875.0 + i * 52_000_000;
            case 23, 22 -> (880 + h) / 1000.0;
            case 25 -> (400 + h) / 1000.0;
            case 4 -> 243 + h + 0.117;
            case 0 -> 1410;
            case 1 -> 1593;
            case 2, 3 -> 41 + h % 3;
            default -> 0;
        };
    }

    /**
     * @param startMs the first timestamp; {@code steps} timestamps 15 s apart
     * @param seriesPerRequest how many series one request carries, each with {@code tsPerRequest} samples
     */
    static Stream build(List<Series> series, long startMs, int steps, int tsPerRequest, int seriesPerRequest) {
        Stream s = new Stream();
        for (int step = 0; step < steps; step += tsPerRequest) {
            int until = Math.min(steps, step + tsPerRequest);
            for (int from = 0; from < series.size(); from += seriesPerRequest) {
                Remote.WriteRequest.Builder w = Remote.WriteRequest.newBuilder();
                for (int k = from; k < Math.min(series.size(), from + seriesPerRequest); k++) {
                    Series x = series.get(k);
                    Types.TimeSeries.Builder ts = Types.TimeSeries.newBuilder();
                    for (Types.Label l : x.labels()) {
                        ts.addLabels(l);
                    }
                    for (int i = step; i < until; i++) {
                        ts.addSamples(Types.Sample.newBuilder().setTimestamp(startMs + i * 15_000L).setValue(value(x, i)));
                        s.samples++;
                    }
                    w.addTimeseries(ts);
                }
                try {
                    s.bodies.add(Snappy.compress(w.build().toByteArray()));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        return s;
    }
}
