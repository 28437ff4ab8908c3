package io.jobmon.diagnosis.engine;

import static io.jobmon.diagnosis.engine.BundleBuilder.concat;
import static io.jobmon.diagnosis.engine.BundleBuilder.repeat;
import static io.jobmon.diagnosis.engine.BundleBuilder.steady;
import static io.jobmon.diagnosis.engine.BundleBuilder.tqdm;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** dcgm-exporter metrics: throttling, saw-tooth, Xid and ECC counters. */
class MetricRulesTest {

    private static final DiagnosisEngine ENGINE = new DiagnosisEngine();
    private static final String START = "2026-08-09T13:30:00Z";

    private static BundleBuilder running() {
        return BundleBuilder.job("RUNNING").pod("w-0", "h1", "Running", "running", null, null, 0)
                .window(START, "2026-08-09T14:05:00Z");
    }

    @Test
    void hwThermalSlowdownWithHotGpusAndFallingClocks() {
        double[] clocks = concat(steady(1980, 10, 60), steady(1250, 10, 80));
        BundleBuilder b = running()
                .logs(START, 60, "w-0", tqdm(10000, 40000, 115, 60, 5000, 35))
                .metric("DCGM_FI_DEV_CLOCK_THROTTLE_REASONS", "h1", "0", "w-0", START, concat(repeat(0, 60), repeat(0x40, 80)))
                .metric("DCGM_FI_DEV_GPU_TEMP", "h1", "0", "w-0", START, concat(steady(72, 1, 60), steady(92, 1, 80)))
                .metric("DCGM_FI_DEV_SM_CLOCK", "h1", "0", "w-0", START, clocks)
                .metric("DCGM_FI_DEV_GPU_UTIL", "h1", "0", "w-0", START, steady(98, 1, 140));
        Diagnosis d = ENGINE.analyze(b.build());
        assertEquals(Category.GPU_THERMAL_THROTTLING, d.category(), d::summary);
        assertEquals(Action.CONTACT_ADMIN, d.action());
        assertTrue(d.summary().contains("HW thermal"), d::summary);
    }

    @Test
    void hwPowerBrakeIsThrottlingToo() {
        BundleBuilder b = running()
                .logs(START, 60, "w-0", tqdm(10000, 40000, 115, 60, 5000, 35))
                .metric("DCGM_FI_DEV_CLOCK_THROTTLE_REASONS", "h1", "3", "w-0", START, concat(repeat(0, 20), repeat(0x80, 120)))
                .metric("DCGM_FI_DEV_GPU_UTIL", "h1", "3", "w-0", START, steady(98, 1, 140));
        Diagnosis d = ENGINE.analyze(b.build());
        assertEquals(Category.GPU_THERMAL_THROTTLING, d.category(), d::summary);
        assertTrue(d.evidence().get(0).text().contains("HW power brake"));
    }

    @Test
    void softwarePowerCapAloneIsNormalAtFullLoad() {
        BundleBuilder b = running()
                .logs(START, 60, "w-0", tqdm(10000, 40000, 115, 60, 5000, 35))
                .metric("DCGM_FI_DEV_CLOCK_THROTTLE_REASONS", "h1", "0", "w-0", START, repeat(0x4, 140))
                .metric("DCGM_FI_DEV_GPU_TEMP", "h1", "0", "w-0", START, steady(70, 2, 140))
                .metric("DCGM_FI_DEV_GPU_UTIL", "h1", "0", "w-0", START, steady(98, 1, 140));
        Diagnosis d = ENGINE.analyze(b.build());
        assertEquals(Category.HEALTHY, d.category(), d::summary);
        assertEquals(Action.NONE, d.action());
    }

    @Test
    void sawToothUtilisationIsADataLoadingBottleneck() {
        List<Double> v = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            v.add(new double[] {97, 75, 30, 6, 2, 0}[i % 6]);
        }
        double[] saw = v.stream().mapToDouble(Double::doubleValue).toArray();
        BundleBuilder b = running().window(START, "2026-08-09T13:55:00Z")
                .logs(START, 60, "w-0", tqdm(100, 40000, 33, 60, 600, 25))
                .metric("DCGM_FI_DEV_GPU_UTIL", "h1", "0", "w-0", START, saw)
                .metric("DCGM_FI_DEV_GPU_UTIL", "h1", "1", "w-0", START, saw);
        Diagnosis d = ENGINE.analyze(b.build());
        assertEquals(Category.DATA_LOADING_BOTTLENECK, d.category(), d::summary);
        assertEquals(Action.NONE, d.action());
    }

    @Test
    void dataTimeDominatingTheIterationIsADataLoadingBottleneck() {
        BundleBuilder b = running();
        for (int i = 0; i < 18; i++) {
            b.log(java.time.Instant.parse(START).plusSeconds(120L * i).toString(), "w-0",
                    "Epoch(train)  [2][" + (100 + 60 * i) + "/5000]  lr: 1.0e-03  eta: 3:00:00  time: 2.0000  data_time: 1.6000  memory: 20000  loss: 0.91");
        }
        Diagnosis d = ENGINE.analyze(b.build());
        assertEquals(Category.DATA_LOADING_BOTTLENECK, d.category(), d::summary);
    }

    @Test
    void hardwareXidInTheMetricsOfAFailedJob() {
        BundleBuilder b = BundleBuilder.job("FAILED").jobTime("finishedAt", "2026-08-09T13:45:00Z")
                .pod("w-0", "h1", "Failed", "terminated", "Error", 1, 0)
                .log("2026-08-09T13:40:05Z", "w-0", "RuntimeError: CUDA error: unknown error")
                .metric("DCGM_FI_DEV_XID_ERRORS", "h1", "5", "w-0", START, concat(repeat(0, 40), repeat(79, 20)));
        Diagnosis d = ENGINE.analyze(b.build());
        assertEquals(Category.GPU_HARDWARE_FAULT, d.category(), d::summary);
        assertEquals(Action.CONTACT_ADMIN, d.action());
    }

    @Test
    void applicationXidIsAUserCodeError() {
        BundleBuilder b = BundleBuilder.job("FAILED").jobTime("finishedAt", "2026-08-09T13:45:00Z")
                .pod("w-0", "h1", "Failed", "terminated", "Error", 1, 0)
                .log("2026-08-09T13:40:00Z", "w-0", "system", "NVRM: Xid (PCI:0000:18:00): 13, pid=811, Graphics Exception: ESR 0x50")
                .log("2026-08-09T13:40:01Z", "w-0", "RuntimeError: CUDA error: an illegal memory access was encountered")
                .metric("DCGM_FI_DEV_XID_ERRORS", "h1", "0", "w-0", START, concat(repeat(0, 40), repeat(13, 20)));
        Diagnosis d = ENGINE.analyze(b.build());
        assertEquals(Category.USER_CODE_ERROR, d.category(), d::summary);
        assertEquals(Action.TERMINATE, d.action());
    }

    @Test
    void doubleBitEccIncrease() {
        BundleBuilder b = BundleBuilder.job("FAILED").jobTime("finishedAt", "2026-08-09T13:45:00Z")
                .pod("w-0", "h1", "Failed", "terminated", "Error", 1, 0)
                .log("2026-08-09T13:40:01Z", "w-0", "RuntimeError: CUDA error: an illegal memory access was encountered")
                .metric("DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", "h1", "2", "w-0", START, concat(repeat(3, 40), repeat(4, 20)));
        Diagnosis d = ENGINE.analyze(b.build());
        assertEquals(Category.GPU_HARDWARE_FAULT, d.category(), d::summary);
    }
}
