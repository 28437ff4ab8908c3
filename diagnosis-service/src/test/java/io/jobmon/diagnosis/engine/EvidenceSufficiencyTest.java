package io.jobmon.diagnosis.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** No evidence never reads as healthy; missing sources lower confidence and lead to UNKNOWN, never to a guess. */
class EvidenceSufficiencyTest {

    private static final DiagnosisEngine ENGINE = new DiagnosisEngine();
    private static final String T0 = "2026-07-13T10:00:00Z";

    private static EvidenceBundle withMissing(BundleBuilder b, String... sources) {
        ObjectNode json = b.json();
        var arr = json.putArray("missingSources");
        for (String s : sources) {
            arr.add(s);
        }
        return EvidenceBundle.fromJson(json);
    }

    @Test
    void aRunningJobWithEverySourceMissingIsUnknownAndSaysWhatIsMissing() {
        BilingualDiagnosis d = ENGINE.analyzeBilingual(withMissing(BundleBuilder.job("RUNNING")
                .pod("w-0", "n1", "Running", "running", null, null, 0), "events", "logs", "metrics"));
        assertEquals(Category.UNKNOWN, d.category());
        assertEquals(Action.CONTACT_ADMIN, d.action());
        assertTrue(d.summary().en().contains("could not read the events, logs and metrics"), d.summary()::en);
        assertTrue(d.summary().zh().contains("无法读取事件、日志、指标"), d.summary()::zh);
        assertTrue(d.confidence() < 0.3);
    }

    @Test
    void aRunningJobWithReachableButEmptySourcesIsNotHealthyEither() {
        Diagnosis d = ENGINE.analyze(BundleBuilder.job("RUNNING").pod("w-0", "n1", "Running", "running", null, null, 0)
                .window(T0, "2026-07-13T10:30:00Z").build());
        assertEquals(Category.UNKNOWN, d.category());
        assertTrue(d.summary().contains("no log lines, metrics or events in the window"), d::summary);
    }

    @Test
    void aRunningJobThatKeepsLoggingOrKeepsItsGpusBusyIsHealthy() {
        Diagnosis logging = ENGINE.analyze(BundleBuilder.job("RUNNING").pod("w-0", "n1", "Running", "running", null, null, 0)
                .log("2026-07-13T10:28:00Z", "w-0", "INFO: 10.0.0.7:5123 - \"POST /v1/completions HTTP/1.1\" 200 OK")
                .window(T0, "2026-07-13T10:30:00Z").build());
        assertEquals(Category.HEALTHY, logging.category(), logging::summary);
        Diagnosis busy = ENGINE.analyze(withMissing(BundleBuilder.job("RUNNING")
                .pod("w-0", "n1", "Running", "running", null, null, 0)
                .metric("DCGM_FI_DEV_GPU_UTIL", "n1", "0", "w-0", T0, BundleBuilder.steady(95, 2, 120))
                .window(T0, "2026-07-13T10:30:00Z"), "logs"));
        assertEquals(Category.HEALTHY, busy.category(), busy::summary);
        assertTrue(busy.confidence() < ENGINE.analyze(BundleBuilder.job("RUNNING")
                .pod("w-0", "n1", "Running", "running", null, null, 0)
                .metric("DCGM_FI_DEV_GPU_UTIL", "n1", "0", "w-0", T0, BundleBuilder.steady(95, 2, 120))
                .window(T0, "2026-07-13T10:30:00Z").build()).confidence(), "the missing logs cost confidence");
    }

    @Test
    void aBareContainerStatusUnknownIsUnknownNotAContainerOom() {
        Diagnosis d = ENGINE.analyze(BundleBuilder.job("FAILED").jobTime("finishedAt", "2026-07-13T10:05:00Z")
                .pod("w-0", "n1", "Failed", "terminated", "ContainerStatusUnknown", 137, 0).build());
        assertEquals(Category.UNKNOWN, d.category(), d::summary);
        assertTrue(d.related().contains(Category.CONTAINER_OOM), d.related()::toString);
        assertEquals(Evidence.POD, d.evidence().get(0).source(), "the pod state it could not explain is quoted");
    }

    @Test
    void anExitCodeWithoutItsLogsQuotesNoTracebackAndNamesTheMissingLogs() {
        Diagnosis d = ENGINE.analyze(withMissing(BundleBuilder.job("FAILED")
                .pod("w-0", "n1", "Failed", "terminated", "Error", 1, 0), "logs"));
        assertEquals(Category.UNKNOWN, d.category(), d::summary);
        assertTrue(d.summary().contains("could not read the logs"), d::summary);
        assertFalse(d.suggestion().contains("traceback quoted"), d::suggestion);
    }

    @Test
    void aUserErrorWhoseTracebackIsQuotedPointsToIt() {
        Diagnosis d = ENGINE.analyze(BundleBuilder.job("FAILED").pod("w-0", "n1", "Failed", "terminated", "Error", 1, 0)
                .log(T0, "w-0", "Traceback (most recent call last):")
                .log(T0, "w-0", "KeyError: 'labels'").build());
        assertEquals(Category.USER_CODE_ERROR, d.category());
        assertTrue(d.suggestion().contains("quoted below"), d::suggestion);
        assertTrue(d.evidence().stream().anyMatch(e -> e.text().contains("KeyError")));
    }

    @Test
    void aDecisiveFindingSurvivesMissingSourcesWithLowerConfidence() {
        BundleBuilder oom = BundleBuilder.job("FAILED").pod("w-0", "n1", "Failed", "terminated", "OOMKilled", 137, 0);
        Diagnosis all = ENGINE.analyze(oom.build());
        Diagnosis gaps = ENGINE.analyze(withMissing(oom, "logs", "events", "metrics"));
        assertEquals(Category.CONTAINER_OOM, gaps.category());
        assertTrue(gaps.confidence() < all.confidence(), gaps.confidence() + " vs " + all.confidence());
    }

    @Test
    void aHangInferredWithoutTheMetricsThatWouldShowItIsNotCalled() {
        BundleBuilder b = BundleBuilder.job("RUNNING").pod("w-0", "n1", "Running", "running", null, null, 0)
                .logs(T0, 60, "w-0", BundleBuilder.tqdm(100, 10000, 60, 60, 60, 8))
                .window("2026-07-13T10:20:00Z", "2026-07-13T10:50:00Z");
        assertEquals(Category.TRAINING_HANG, ENGINE.analyze(b.build()).category(), "the metrics answered, with nothing");
        Diagnosis d = ENGINE.analyze(withMissing(b, "metrics", "events"));
        assertEquals(Category.UNKNOWN, d.category(), d::summary);
        assertNotEquals(Action.RESTART, d.action());
    }

    @Test
    void missingSourcesAreValidated() throws Exception {
        var json = BundleBuilder.JSON;
        BundleValidationException bad = assertThrows(BundleValidationException.class,
                () -> EvidenceBundle.fromJson(json.readTree("{\"missingSources\": [\"logs\", \"disks\"]}")));
        assertEquals("missingSources[1]", bad.field());
        assertEquals("missingSources", assertThrows(BundleValidationException.class,
                () -> EvidenceBundle.fromJson(json.readTree("{\"missingSources\": \"logs\"}"))).field());
        EvidenceBundle ok = EvidenceBundle.fromJson(json.readTree("{\"missingSources\": [\"LOGS\", \"metrics\", \"logs\"]}"));
        assertTrue(ok.missing("logs") && ok.missing("metrics") && !ok.missing("events"));
        assertEquals(2, ok.missingSources().size());
    }

    @Test
    void aPendingJobWithNothingKnownWaits() {
        Diagnosis d = ENGINE.analyze(withMissing(BundleBuilder.job("PENDING"), "events"), Locale.CHINESE);
        assertEquals(Category.UNKNOWN, d.category());
        assertEquals(Action.WAIT, d.action());
        assertTrue(d.summary().contains("无法读取事件"), d::summary);
    }
}
