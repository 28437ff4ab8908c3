package io.jobmon.diagnosis.engine;

import static io.jobmon.diagnosis.engine.BundleBuilder.concat;
import static io.jobmon.diagnosis.engine.BundleBuilder.repeat;
import static io.jobmon.diagnosis.engine.BundleBuilder.steady;
import static io.jobmon.diagnosis.engine.BundleBuilder.tqdm;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** Real speed from successive progress lines: resume trap, slow-but-steady, slowdown, hang. */
class SpeedAndHangTest {

    private static final DiagnosisEngine ENGINE = new DiagnosisEngine();
    private static final String START = "2026-07-13T12:00:00Z";

    /** The contract's resume trap: the bar restarts its clock at the checkpoint step. */
    @Test
    void resumeFromCheckpointIsNotASlowdownNorAHang() {
        BundleBuilder b = BundleBuilder.job("RUNNING")
                .pod("w-0", "n1", "Running", "running", null, null, 0)
                .log("2026-07-13T11:59:30Z", "w-0", "[INFO|trainer.py:2157] >>   Continuing training from global step 4500")
                .logs(START, 75, "w-0", tqdm(4536, 10000, 91, 75, 30, 28))
                .metric("DCGM_FI_DEV_GPU_UTIL", "n1", "0", "w-0", START, steady(95, 3, 140))
                .window(START, "2026-07-13T12:35:00Z");
        Diagnosis d = ENGINE.analyze(b.build());
        assertEquals(Category.HEALTHY, d.category(), d::summary);
        assertEquals(Action.NONE, d.action());
        assertTrue(d.summary().contains("1.21 it/s"), d::summary);
    }

    @Test
    void resumeTrapRateIsComputedFromPairs() {
        List<ProgressPoint> points = new ArrayList<>();
        Instant t = Instant.parse(START);
        List<String> lines = tqdm(4536, 10000, 91, 75, 30, 20);
        for (int i = 0; i < lines.size(); i++) {
            points.add(ProgressParser.parseLine(lines.get(i), t.plusSeconds(75L * i), "w-0", i));
        }
        SpeedReport r = SpeedAnalysis.analyze(points, 0.7, false);
        assertEquals(91 / 75.0, r.recentRate(), 0.01);
        assertTrue(r.steady());
        assertTrue(r.resumed(), "the inflated printed average reveals the resume");
        assertTrue(r.printedRate() > 2 * r.recentRate());
    }

    /** Megatron on a huge model: minutes per iteration, one line per iteration, GPUs busy. */
    @Test
    void slowButSteadyLargeModelIsHealthy() {
        BundleBuilder b = BundleBuilder.job("RUNNING").pod("w-0", "n1", "Running", "running", null, null, 0);
        Instant t = Instant.parse(START);
        for (int i = 0; i < 8; i++) {
            b.log(t.plusSeconds(240L * i).toString(), "w-0", String.format(Locale.ROOT,
                    " iteration %8d/   20000 | consumed samples: %d | elapsed time per iteration (ms): 240012.3 | lm loss: 2.1E+00 |",
                    501 + i, (501 + i) * 1024));
        }
        // last line at 12:28, window ends at 12:39: 11 minutes of silence is less than three iterations
        b.metric("DCGM_FI_DEV_GPU_UTIL", "n1", "0", "w-0", START, steady(97, 2, 156))
                .window(START, "2026-07-13T12:39:00Z");
        Diagnosis d = ENGINE.analyze(b.build());
        assertEquals(Category.HEALTHY, d.category(), d::summary);
        assertEquals(Action.NONE, d.action());
    }

    @Test
    void realSlowdownAgainstTheJobsOwnBaseline() {
        List<String> lines = new ArrayList<>(tqdm(1000, 60000, 144, 60, 600, 20));
        lines.addAll(tqdm(1000 + 144 * 20, 60000, 60, 60, 600 + 60 * 20, 15));
        BundleBuilder b = BundleBuilder.job("RUNNING").pod("w-0", "n1", "Running", "running", null, null, 0)
                .logs(START, 60, "w-0", lines)
                .metric("DCGM_FI_DEV_GPU_UTIL", "n1", "0", "w-0", START, concat(steady(94, 3, 80), steady(47, 5, 60)))
                .metric("DCGM_FI_DEV_CLOCK_THROTTLE_REASONS", "n1", "0", "w-0", START, repeat(0, 140))
                .window(START, "2026-07-13T12:35:00Z");
        Diagnosis d = ENGINE.analyze(b.build());
        assertEquals(Category.TRAINING_SLOWDOWN, d.category(), d::summary);
        assertEquals(Action.RESUBMIT_DEBUG, d.action());
    }

    @Test
    void deepSpeedSlowdownFromTimestamps() {
        BundleBuilder b = BundleBuilder.job("RUNNING").pod("w-0", "n1", "Running", "running", null, null, 0);
        Instant t = Instant.parse(START);
        int step = 100;
        for (int i = 0; i < 30; i++) {
            step += i < 18 ? 10 : 4;
            b.log(t.plusSeconds(60L * i).toString(), "w-0",
                    "[INFO] [logging.py:128:log_dist] [Rank 0] step=" + step + ", skipped=0, lr=[1e-05], mom=[[0.9, 0.95]]");
        }
        Diagnosis d = ENGINE.analyze(b.window(START, "2026-07-13T12:30:00Z").build());
        assertEquals(Category.TRAINING_SLOWDOWN, d.category(), d::summary);
    }

    @Test
    void noProgressWithIdleGpusIsAHang() {
        BundleBuilder b = hungJob(20);
        Diagnosis d = ENGINE.analyze(b.build());
        assertEquals(Category.TRAINING_HANG, d.category(), d::summary);
        assertEquals(Action.RESTART, d.action());
        assertTrue(d.evidence().stream().anyMatch(e -> e.source().equals(Evidence.METRIC)));
    }

    @Test
    void hangThresholdIsConfigurable() {
        DiagnosisEngine patient = new DiagnosisEngine(PatternCatalogue.defaults(),
                PatternCatalogue.defaults().settings().withHangThreshold(Duration.ofMinutes(30)));
        Diagnosis d = patient.analyze(hungJob(20).build());
        assertNotEquals(Category.TRAINING_HANG, d.category(), d::summary);
        assertEquals(Category.TRAINING_HANG, patient.analyze(hungJob(35).build()).category());
    }

    @Test
    void aShortPauseIsNotAHang() {
        Diagnosis d = ENGINE.analyze(hungJob(6).build());
        assertEquals(Category.HEALTHY, d.category(), d::summary);
    }

    @Test
    void silentLogsWithoutMetricsAfterARegularPaceIsAHang() {
        BundleBuilder b = BundleBuilder.job("RUNNING").pod("w-0", "n1", "Running", "running", null, null, 0)
                .logs(START, 60, "w-0", tqdm(100, 10000, 30, 60, 600, 10))
                .window(START, "2026-07-13T12:40:00Z");
        assertEquals(Category.TRAINING_HANG, ENGINE.analyze(b.build()).category());
    }

    @Test
    void busyGpusWithoutProgressLinesAreNotCalledHung() {
        BundleBuilder b = BundleBuilder.job("RUNNING").pod("w-0", "n1", "Running", "running", null, null, 0)
                .log(START, "w-0", " 10%|#         | 100/1000 [10:00<90:00, 6.00s/it]")
                .metric("DCGM_FI_DEV_GPU_UTIL", "n1", "0", "w-0", START, steady(90, 6, 120))
                .window(START, "2026-07-13T12:30:00Z");
        Diagnosis d = ENGINE.analyze(b.build());
        assertEquals(Category.HEALTHY, d.category(), d::summary);
    }

    /** Progress every minute until {@code 12:09}, then {@code silentMinutes} of nothing with idle GPUs. */
    private static BundleBuilder hungJob(int silentMinutes) {
        int busy = 40;
        int idle = silentMinutes * 4;
        return BundleBuilder.job("RUNNING")
                .pod("w-0", "n1", "Running", "running", null, null, 0)
                .logs(START, 60, "w-0", tqdm(100, 10000, 10, 60, 600, 10))
                .metric("DCGM_FI_DEV_GPU_UTIL", "n1", "0", "w-0", START, concat(steady(95, 2, busy), repeat(0, idle)))
                .metric("DCGM_FI_DEV_GPU_UTIL", "n1", "1", "w-0", START, concat(steady(95, 2, busy), repeat(0, idle)))
                .window(START, Instant.parse(START).plusSeconds(15L * (busy + idle)).toString());
    }
}
