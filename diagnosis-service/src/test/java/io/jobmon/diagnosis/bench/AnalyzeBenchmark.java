package io.jobmon.diagnosis.bench;

import io.jobmon.diagnosis.engine.Diagnosis;
import io.jobmon.diagnosis.engine.DiagnosisEngine;
import io.jobmon.diagnosis.engine.EvidenceBundle;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * Latency benchmark of {@link DiagnosisEngine#analyze} (a {@code main} program, not a test).
 *
 * <p>Builds synthetic bundles at three sizes: base = 100,000 log lines over 64 pods, 8 GPUs x 30
 * minutes of 15 s samples for 8 dcgm metrics (plus events), and 1/10 and 10x that. For each size it
 * warms up, runs {@code analyze} repeatedly and prints p50/p95/p99 latency, the bytes allocated per
 * analysis and the heap used after GC (bundle included). Wall-clock and thread-CPU percentiles are both printed,
 * since on a shared machine wall time includes waiting for a core. Run from {@code /work/main}:
 *
 * <pre>
 * mvn -q -pl diagnosis-service test-compile -Dquarkus.build.skip=true
 * mvn -q -pl diagnosis-service dependency:build-classpath -Dmdep.outputFile=/tmp/cp.txt
 * java -Xmx4g -cp "$(cat /tmp/cp.txt):diagnosis-service/target/classes:diagnosis-service/target/test-classes" \
 *      io.jobmon.diagnosis.bench.AnalyzeBenchmark [scale ...]
 * </pre>
 * Optional arguments are the scales to run (default {@code 0.1 1 10}).
 */
public final class AnalyzeBenchmark {

    private static final Instant START = Instant.parse("2026-07-13T10:00:00Z");
    private static final String[] METRICS = {"DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_DEV_FB_USED", "DCGM_FI_DEV_GPU_TEMP",
        "DCGM_FI_DEV_POWER_USAGE", "DCGM_FI_DEV_XID_ERRORS", "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS",
        "DCGM_FI_PROF_SM_ACTIVE", "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE"};

    private AnalyzeBenchmark() {
    }

    public static void main(String[] args) {
        double[] scales = args.length == 0 ? new double[] {0.1, 1, 10}
                : Arrays.stream(args).mapToDouble(Double::parseDouble).toArray();
        DiagnosisEngine engine = new DiagnosisEngine();
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        System.out.printf(Locale.ROOT, "%-6s %9s %5s %5s %8s %8s %8s %9s %9s %5s %9s %9s  %s%n", "scale", "logs", "pods",
                "gpus", "p50 ms", "p95 ms", "p99 ms", "cpu50 ms", "cpu95 ms", "runs", "alloc MB", "heap MB", "diagnosis");
        for (double scale : scales) {
            EvidenceBundle bundle = bundle(scale);
            int runs = scale >= 10 ? 15 : scale >= 1 ? 60 : 300;
            int warmup = scale >= 10 ? 5 : scale >= 1 ? 30 : 200;
            Diagnosis d = null;
            for (int i = 0; i < warmup; i++) {
                d = engine.analyze(bundle);
            }
            System.gc();
            long[] nanos = new long[runs];
            long[] cpu = new long[runs];
            java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            long allocated = allocatedBytes();
            for (int i = 0; i < runs; i++) {
                long c0 = threads.getCurrentThreadCpuTime();
                long t0 = System.nanoTime();
                d = engine.analyze(bundle);
                nanos[i] = System.nanoTime() - t0;
                cpu[i] = threads.getCurrentThreadCpuTime() - c0;
            }
            allocated = (allocatedBytes() - allocated) / runs;
            System.gc();
            long heap = memory.getHeapMemoryUsage().getUsed();
            Arrays.sort(nanos);
            Arrays.sort(cpu);
            System.out.printf(Locale.ROOT, "%-6s %9d %5d %5d %8.1f %8.1f %8.1f %9.1f %9.1f %5d %9.1f %9.1f  %s/%s%n", scale,
                    bundle.logs().size(), bundle.pods().size(), gpus(scale), ms(nanos, 0.50), ms(nanos, 0.95), ms(nanos, 0.99),
                    ms(cpu, 0.50), ms(cpu, 0.95), runs, allocated / 1e6, heap / 1e6, d.category(), d.action());
        }
    }

    private static double ms(long[] sorted, double q) {
        int i = Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1);
        return sorted[Math.max(0, i)] / 1e6;
    }

    private static long allocatedBytes() {
        java.lang.management.ThreadMXBean t = ManagementFactory.getThreadMXBean();
        if (t instanceof com.sun.management.ThreadMXBean sun) {
            return sun.getThreadAllocatedBytes(Thread.currentThread().getId());
        }
        return 0;
    }

    private static int gpus(double scale) {
        return Math.max(1, (int) Math.round(8 * scale));
    }

    /** A 64-pod (scaled) job: training logs with noise, a NCCL failure at the end, events and GPU series. */
    public static EvidenceBundle bundle(double scale) {
        Random rnd = new Random(42);
        int lines = (int) Math.round(100_000 * scale);
        int pods = Math.max(1, (int) Math.round(64 * scale));
        List<EvidenceBundle.Pod> podList = new ArrayList<>();
        for (int p = 0; p < pods; p++) {
            podList.add(new EvidenceBundle.Pod("llm-pt-worker-" + p, "gpu-node-" + (p / 8), "Failed", null, null,
                    List.of(new EvidenceBundle.Container("trainer", "terminated", "Error", 1, 0, null))));
        }
        List<EvidenceBundle.LogLine> logs = new ArrayList<>(lines);
        double seconds = 30 * 60.0;
        for (int i = 0; i < lines; i++) {
            Instant t = START.plusMillis((long) (seconds * 1000 * i / lines));
            String pod = "llm-pt-worker-" + (i % pods);
            logs.add(new EvidenceBundle.LogLine(t, pod, "trainer", "user", noise(rnd, i, lines, t)));
        }
        Instant failure = START.plusSeconds(29 * 60);
        logs.add(new EvidenceBundle.LogLine(failure, "llm-pt-worker-3", "trainer", "user",
                "h3:1:2 [3] NCCL WARN NET/IB : Got completion from peer 10.0.0.9<4431> with status=12 opcode=0 len=0 vendor err 129"));
        for (int p = 0; p < Math.min(pods, 64); p++) {
            logs.add(new EvidenceBundle.LogLine(failure.plusSeconds(40), "llm-pt-worker-" + p, "trainer", "user",
                    "[rank" + p + "]:[E713 10:29:40] ProcessGroupNCCL.cpp:607] [Rank " + p + "] Watchdog caught collective operation "
                            + "timeout: WorkNCCL(SeqNum=88121, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600021 milliseconds"));
        }
        List<EvidenceBundle.Event> events = new ArrayList<>();
        for (int p = 0; p < pods; p++) {
            String obj = "Pod/llm-pt-worker-" + p;
            events.add(new EvidenceBundle.Event(START.minusSeconds(300), "Normal", "Scheduled", obj,
                    "Successfully assigned team/llm-pt-worker-" + p + " to gpu-node-" + (p / 8)));
            events.add(new EvidenceBundle.Event(START.minusSeconds(290), "Normal", "Pulled", obj,
                    "Container image \"harbor.local/llm/megatron:24.05\" already present on machine"));
            events.add(new EvidenceBundle.Event(START.minusSeconds(280), "Normal", "Started", obj, "Started container trainer"));
        }
        List<EvidenceBundle.Metric> metrics = new ArrayList<>();
        int samples = 120;
        for (int g = 0; g < gpus(scale); g++) {
            for (String name : METRICS) {
                List<EvidenceBundle.Sample> s = new ArrayList<>(samples);
                for (int i = 0; i < samples; i++) {
                    s.add(new EvidenceBundle.Sample(START.plusSeconds(15L * i), value(name, rnd)));
                }
                metrics.add(new EvidenceBundle.Metric(name, Map.of("Hostname", "gpu-node-" + (g / 8), "gpu",
                        String.valueOf(g % 8), "pod", "llm-pt-worker-" + (g % pods)), s));
            }
        }
        EvidenceBundle.Job job = new EvidenceBundle.Job("job-bench", "llm-pt", "FAILED", START.minusSeconds(600),
                START.minusSeconds(280), START.plusSeconds(30 * 60), "64*H800", "llm", true, 0, 3, null);
        return new EvidenceBundle(job, podList, events, logs, metrics,
                new EvidenceBundle.Window(START, START.plusSeconds(30 * 60)), null);
    }

    private static String noise(Random rnd, int i, int lines, Instant t) {
        int step = 1 + i * 5000 / Math.max(1, lines);
        return switch (rnd.nextInt(10)) {
            case 0, 1, 2 -> String.format(Locale.ROOT, " %2d%%|####      | %d/5000 [%02d:%02d<1:00:00, 2.%02dit/s]",
                    step / 50, step, (i / 60) % 60, i % 60, rnd.nextInt(100));
            case 3 -> "{'loss': 1." + rnd.nextInt(1000) + ", 'grad_norm': 0.4, 'learning_rate': 2e-05, 'epoch': 0." + rnd.nextInt(99) + "}";
            case 4 -> "[INFO|trainer.py:2128] " + t + " >> Saving model checkpoint to /output/checkpoint-" + step;
            case 5 -> "gpu-node-1:88:123 [" + rnd.nextInt(8) + "] NCCL INFO Channel 0" + rnd.nextInt(9)
                    + "/0 : 3[3] -> 4[4] via P2P/IPC/read";
            case 6 -> "/usr/local/lib/python3.10/dist-packages/torch/utils/checkpoint.py:464: UserWarning: torch.utils.checkpoint: "
                    + "the use_reentrant parameter should be passed explicitly; no error is raised yet";
            case 7 -> "[2026-07-13 10:00:00,000] [INFO] [logging.py:128:log_dist] [Rank 0] step=" + step + ", skipped=0, lr=[2e-05]";
            case 8 -> "W0713 10:00:00.000000 88 torch/distributed/run.py:793] Setting OMP_NUM_THREADS environment variable "
                    + "for each process to be 1 in default, to avoid your system being overloaded";
            default -> "data shard " + rnd.nextInt(1_000_000) + " loaded from /mnt/data/corpus/part-" + rnd.nextInt(5000)
                    + ".parquet in " + rnd.nextInt(900) + " ms (exceptions so far: 0)";
        };
    }

    private static double value(String name, Random rnd) {
        return switch (name) {
            case "DCGM_FI_DEV_GPU_UTIL" -> 90 + rnd.nextInt(10);
            case "DCGM_FI_DEV_FB_USED" -> 70000 + rnd.nextInt(900);
            case "DCGM_FI_DEV_GPU_TEMP" -> 60 + rnd.nextInt(8);
            case "DCGM_FI_DEV_POWER_USAGE" -> 600 + rnd.nextInt(80);
            case "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS", "DCGM_FI_DEV_XID_ERRORS" -> 0;
            default -> 0.8 + rnd.nextDouble() * 0.15;
        };
    }
}
