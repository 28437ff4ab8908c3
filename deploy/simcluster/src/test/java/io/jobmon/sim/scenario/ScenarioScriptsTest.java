package io.jobmon.sim.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.PodBuilder;
import io.jobmon.sim.cluster.GpuModel;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** What each scenario's script plays, checked without a cluster. */
class ScenarioScriptsTest {

    private static final Pattern TQDM = Pattern.compile("^(?:Steps: )? *(\\d+)%\\|[ ▏▎▍▌▋▊▉█]{10}\\| (\\d+)/(\\d+) "
            + "\\[((?:\\d+:)?\\d\\d:\\d\\d)<((?:\\d+:)?\\d\\d:\\d\\d|\\?), +([\\d.]+)(it/s|s/it)(?:, .*)?\\]$");

    private static Run run(int rank, int replicas) {
        return new Run("jobmon-jobs", "job-1-" + rank + "-abcde", "main", "img:1", "gpu-a800-01", GpuModel.of("A800"),
                List.of(0, 1, 2, 3, 4, 5, 6, 7), rank, replicas, 0, Duration.ofMinutes(10),
                Instant.parse("2026-07-13T09:48:00Z"), 1, 42, 256L << 30, Run.memcg("5a5e5b0f-1c2d-4e3f-8a9b-0c1d2e3f4a5b",
                        "Burstable", "3f1c0e9d8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e"));
    }

    private static List<String> lines(Script s) {
        return s.steps().stream().filter(t -> t.step() instanceof Step.Log).map(t -> ((Step.Log) t.step()).line()).toList();
    }

    private static Step.Exit exit(Script s) {
        return s.steps().stream().filter(t -> t.step() instanceof Step.Exit).map(t -> (Step.Exit) t.step())
                .findFirst().orElse(null);
    }

    /** (seconds elapsed, step, printed rate in it/s) of every bar line. */
    private static List<double[]> bars(Script s) {
        List<double[]> out = new ArrayList<>();
        for (String l : lines(s)) {
            Matcher m = TQDM.matcher(l);
            if (m.matches()) {
                String[] t = m.group(4).split(":");
                double secs = 0;
                for (String p : t) {
                    secs = secs * 60 + Integer.parseInt(p);
                }
                double rate = Double.parseDouble(m.group(6));
                out.add(new double[] {secs, Integer.parseInt(m.group(2)), m.group(7).equals("it/s") ? rate : 1 / rate});
            }
        }
        return out;
    }

    @Test
    void aPodAsksForAScenarioWithEitherLabelAndGetsHealthyOtherwise() {
        var pod = new PodBuilder().withNewMetadata().addToLabels("jobmon.io/sim-scenario", "oom").endMetadata().build();
        assertEquals("oom", Scenarios.named(Scenarios.nameOf(pod)).name());
        var alt = new PodBuilder().withNewMetadata().addToLabels("sim.jobmon.io/scenario", "ecc").endMetadata().build();
        assertEquals("ecc", Scenarios.named(Scenarios.nameOf(alt)).name());
        assertEquals("healthy", Scenarios.named(null).name());
        assertEquals("healthy", Scenarios.named("no-such").name());
        for (String required : List.of("oom", "cuda-oom", "nccl-timeout", "hang", "image-pull", "xid-79", "ecc",
                "resume-trap", "dataloader-slow", "throttling", "node-lost", "quota", "preempted", "evicted",
                "missing-module", "bad-data-path")) {
            assertEquals(required, Scenarios.named(required).name());
        }
    }

    @Test
    void aDebugAttemptsCommandPlaysDebugWhateverTheLabelsSay() {
        for (List<String> command : List.of(List.of("sleep", "infinity"), List.of("/bin/sh", "-c", "sleep infinity"),
                List.of("bash", "-lc", "pip list; sleep inf"))) {
            var pod = new PodBuilder().withNewMetadata().addToLabels("jobmon.io/sim-scenario", "oom").endMetadata()
                    .withNewSpec().addNewContainer().withName("main").withCommand(command).endContainer().endSpec().build();
            assertEquals("debug", Scenarios.nameOf(pod), command.toString());
        }
        for (List<String> command : List.of(List.of("sleep", "3600"), List.of("torchrun", "train.py", "--sleep", "info"))) {
            var pod = new PodBuilder().withNewMetadata().addToLabels("jobmon.io/sim-scenario", "oom").endMetadata()
                    .withNewSpec().addNewContainer().withName("main").withCommand(command).endContainer().endSpec().build();
            assertEquals("oom", Scenarios.nameOf(pod), command.toString());
        }
        Script idle = Scenarios.named("debug").script().apply(run(0, 1));
        assertTrue(idle.steps().stream().noneMatch(t -> t.step() instanceof Step.Exit || t.step() instanceof Step.Log),
                idle.steps().toString());
    }

    @Test
    void aHealthyRunPrintsTqdmBarsAtASteadySpeedAndExitsZeroAfterItsRunTime() {
        Script s = Scenarios.named("healthy").script().apply(run(0, 1));
        List<double[]> bars = bars(s);
        assertTrue(bars.size() >= 15, "bars: " + bars.size());
        for (double[] b : bars) {
            assertEquals(1 / 2.1, b[2], 0.05, "printed rate");
        }
        Step.Exit exit = exit(s);
        assertEquals(0, exit.code());
        assertEquals("Completed", exit.reason());
        Duration end = s.steps().get(s.steps().size() - 1).at();
        assertTrue(end.compareTo(Duration.ofMinutes(10)) > 0 && end.compareTo(Duration.ofMinutes(11)) < 0, end.toString());
        assertTrue(lines(s).stream().anyMatch(l -> l.matches("\\{'loss': [\\d.]+, 'grad_norm': [\\d.]+, 'learning_rate': [\\d.e-]+, 'epoch': [\\d.]+\\}")));
    }

    @Test
    void onlyRankZeroPrintsProgress() {
        assertTrue(bars(Scenarios.named("healthy").script().apply(run(1, 2))).isEmpty());
    }

    @Test
    void theResumeTrapsPrintedRateFallsWhileTheRealSpeedIsSteady() {
        List<double[]> bars = bars(Scenarios.named("resume-trap").script().apply(run(0, 1)));
        for (int i = 1; i < bars.size(); i++) {
            assertTrue(bars.get(i)[2] < bars.get(i - 1)[2], "the printed rate keeps falling");
            double real = (bars.get(i)[1] - bars.get(i - 1)[1]) / (bars.get(i)[0] - bars.get(i - 1)[0]);
            assertEquals(1 / 2.1, real, 0.08, "the real rate between successive lines");
        }
        assertTrue(bars.get(0)[1] > 100, "the bar starts at the checkpoint's step");
    }

    @Test
    void throttlingSlowsTheRealRateAndHeatsTheGpus() {
        Script s = Scenarios.named("throttling").script().apply(run(0, 1));
        List<double[]> bars = bars(s);
        double first = (bars.get(3)[1] - bars.get(2)[1]) / (bars.get(3)[0] - bars.get(2)[0]);
        double last = (bars.get(bars.size() - 1)[1] - bars.get(bars.size() - 3)[1])
                / (bars.get(bars.size() - 1)[0] - bars.get(bars.size() - 3)[0]);
        assertTrue(last < first * 0.8, first + " -> " + last);
        var load = s.steps().stream().filter(t -> t.step() instanceof Step.Load).map(t -> ((Step.Load) t.step()).load())
                .reduce((a, b) -> b).orElseThrow();
        var hot = load.sample(GpuModel.of("H100"), Duration.ofMinutes(6), new java.util.Random(1));
        assertTrue(hot.tempC() >= 88, "temp " + hot.tempC());
        assertEquals(0x60, hot.throttleReasons());
        assertTrue(hot.smClockMHz() < 1400, "clock " + hot.smClockMHz());
    }

    @Test
    void theOomKillersSummaryLineNamesTheContainersCgroupBetweenItsFirstAndItsKillLine() {
        List<String> kernel = Scenarios.named("oom").script().apply(run(0, 1)).steps().stream()
                .filter(t -> t.step() instanceof Step.Journal j && j.identifier().equals("kernel"))
                .map(t -> ((Step.Journal) t.step()).message()).toList();
        String memcg = "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod5a5e5b0f_1c2d_4e3f_8a9b_0c1d2e3f4a5b"
                + ".slice/cri-containerd-3f1c0e9d8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e.scope";
        assertEquals(3, kernel.size(), kernel.toString());
        assertTrue(kernel.get(0).startsWith("python invoked oom-killer: "));
        assertEquals("oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=cri-containerd-3f1c0e9d8b7a6f5e4d3c2b1a0f9e8d7c6b5a"
                + "4f3e2d1c0b9a8f7e6d5c4b3a2f1e.scope,mems_allowed=0-1,oom_memcg=" + memcg + ",task_memcg=" + memcg
                + ",task=python,pid=" + (Torchrun.FIRST_RANK_PID + 3) + ",uid=0", kernel.get(1));
        assertTrue(kernel.get(2).startsWith("Memory cgroup out of memory: Killed process " + (Torchrun.FIRST_RANK_PID + 3)
                + " (python) "));
    }

    @Test
    void failuresEndWithTheExitCodesTheRuntimeReports() {
        assertEquals(137, exit(Scenarios.named("oom").script().apply(run(0, 1))).code());
        assertEquals("OOMKilled", exit(Scenarios.named("oom").script().apply(run(0, 1))).reason());
        for (String name : List.of("cuda-oom", "nccl-timeout", "xid-79", "ecc", "missing-module", "bad-data-path", "user-error")) {
            Step.Exit e = exit(Scenarios.named(name).script().apply(run(0, 1)));
            assertEquals(List.of(1, "Error"), List.of(e.code(), e.reason()), name);
        }
        assertEquals(143, exit(Scenarios.named("unknown").script().apply(run(0, 1))).code());
        assertEquals(null, exit(Scenarios.named("hang").script().apply(run(0, 1))));
        assertTrue(Scenarios.named("start-command").script().apply(run(0, 1)).startError().contains("executable file not found in $PATH"));
        assertEquals(Script.Pull.NOT_FOUND, Scenarios.named("image-pull").script().apply(run(0, 1)).pull());
    }

    @Test
    void theNcclTimeoutIsPrintedByEveryRankOfEveryPodInPyTorchsForm() {
        List<String> l = lines(Scenarios.named("nccl-timeout").script().apply(run(1, 2)));
        for (int rank = 8; rank < 16; rank++) {
            int r = rank;
            assertTrue(l.stream().anyMatch(x -> x.matches("\\[rank" + r + "\\]:\\[E\\d{3,4} \\d\\d:\\d\\d:\\d\\d\\.\\d{9} "
                    + "ProcessGroupNCCL\\.cpp:607\\] \\[Rank " + r + "\\] Watchdog caught collective operation timeout: .*")), "rank " + r);
        }
        assertFalse(l.stream().anyMatch(x -> x.contains("NCCL WARN NET/IB")), "the transport error is worker 0's");
        assertTrue(lines(Scenarios.named("nccl-timeout").script().apply(run(0, 2))).stream().anyMatch(x -> x.contains(
                "NCCL WARN NET/IB : Got completion from peer 10.66.12.18<51444> with status=12 opcode=0 len=0 vendor err 129 (Recv)")));
    }

    @Test
    void theMissingModuleAndDataPathErrorsCarryPythonsExceptionText() {
        assertTrue(lines(Scenarios.named("missing-module").script().apply(run(0, 1))).contains(
                "[rank7]: ModuleNotFoundError: No module named 'flash_attn'"));
        assertTrue(lines(Scenarios.named("bad-data-path").script().apply(run(0, 1))).contains(
                "[rank0]: FileNotFoundError: Unable to find '/mnt/data/sft/train_v3.jsonl'"));
    }

    @Test
    void tqdmBarsAndPythonNumbersLookLikeTheirs() {
        assertEquals("████▌     ", TrainingLog.blocks(0.4536));
        assertEquals("▍         ", TrainingLog.blocks(9 / 2262.0 * 10));
        assertEquals("██████████", TrainingLog.blocks(1));
        assertEquals("1.999132110911845e-05", PyFormat.repr(1.999132110911845e-05));
        assertEquals("0.04", PyFormat.round(0.0412, 2));
        assertEquals("1.883", PyFormat.round(1.88302, 4));
        assertEquals("3.0", PyFormat.repr(3));
        assertEquals("4:13:10", PyFormat.interval(4 * 3600 + 13 * 60 + 10.7));
        assertEquals("01:01", PyFormat.interval(61));
        assertEquals("E804 22:41:17.000000393", PyFormat.c10('E', Instant.parse("2026-08-04T22:41:17.000000393Z")));
        assertEquals("11:02:41", Runs.timedelta(39_761));
        assertEquals("1 day, 2:03:04", Runs.timedelta(86_400 + 7384));
    }
}
