package io.jobmon.diagnosis.analysis;

import io.jobmon.diagnosis.engine.EngineJson;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.jobmon.contracts.problem.ApiException;
import io.jobmon.diagnosis.engine.BundleValidationException;
import io.jobmon.diagnosis.engine.Category;
import io.jobmon.diagnosis.support.Samples;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** The engine runs off the caller's thread, bounded in time and in how many wait. */
class AnalysisRunnerTest {

    private static byte[] sample(String file) {
        return Samples.bundle(file).toString().getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aBundleIsAnalysedOnThePool() {
        AnalysisRunner runner = new AnalysisRunner(1, 1, Duration.ofSeconds(20));
        assertEquals(Category.GPU_OOM, runner.analyze(sample("008-gpu_oom.json"), Locale.ENGLISH).await()
                .atMost(Duration.ofSeconds(30)).category());
    }

    @Test
    void anAnalysisOverTheDeadlineIs503() {
        AnalysisRunner runner = new AnalysisRunner(1, 1, Duration.ofNanos(1));
        ApiException e = assertThrows(ApiException.class, () -> runner.analyze(sample("018-gpu_thermal_throttling.json"),
                Locale.ENGLISH).await().atMost(Duration.ofSeconds(30)));
        assertEquals(503, e.status());
    }

    @Test
    void aFullQueueIs503AtOnce() {
        AnalysisRunner runner = new AnalysisRunner(1, 1, Duration.ofSeconds(20));
        byte[] big = sample("018-gpu_thermal_throttling.json");
        runner.analyze(big, Locale.ENGLISH); // runs
        runner.analyze(big, Locale.ENGLISH); // waits in the queue
        ApiException e = assertThrows(ApiException.class, () -> runner.analyze(big, Locale.ENGLISH).await()
                .atMost(Duration.ofMillis(1)));
        assertEquals(503, e.status());
    }

    @Test
    void malformedJsonAndMalformedBundlesFailAsSuch() {
        AnalysisRunner runner = new AnalysisRunner(1, 1, Duration.ofSeconds(20));
        Throwable json = assertThrows(RuntimeException.class, () -> runner.analyze("{".getBytes(StandardCharsets.UTF_8),
                Locale.ENGLISH).await().atMost(Duration.ofSeconds(10)));
        assertInstanceOf(EngineJson.MalformedJson.class, json);
        BundleValidationException bad = assertThrows(BundleValidationException.class, () -> runner.analyze(
                "{\"logs\": 3}".getBytes(StandardCharsets.UTF_8), Locale.ENGLISH).await().atMost(Duration.ofSeconds(10)));
        assertEquals("logs", bad.field());
    }
}
