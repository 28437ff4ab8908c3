package io.jobmon.diagnosis.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link EvidenceBundle#fromJson}: validation with JSON paths, tolerance of missing sections and unknown keys. */
class BundleParsingTest {

    private static JsonNode json(String text) throws Exception {
        return BundleBuilder.JSON.readTree(text.replace('\'', '"'));
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', value = {
        "{'logs': [{'line':'a'},{'line':'b'},{'line':'c'},{'time':'yesterday','line':'d'}]}  | logs[3].time",
        "{'logs': {'line': 'a'}}                                                              | logs",
        "{'logs': ['just a string']}                                                         | logs[0]",
        "{'job': {'status': 'FAILED', 'retryCount': 'two'}}                                   | job.retryCount",
        "{'job': {'supportsRestart': 'yes'}}                                                  | job.supportsRestart",
        "{'job': {'startedAt': '2026-13-45T99:00:00Z'}}                                       | job.startedAt",
        "{'job': 'FAILED'}                                                                    | job",
        "{'events': [{'time': 12345, 'reason': 'X'}]}                                         | events[0].time",
        "{'pods': [{'name': 'p', 'containers': [{'name': 'c'}, {'exitCode': 1.5}]}]}          | pods[0].containers[1].exitCode",
        "{'metrics': [{'name': 'm', 'samples': [['2026-01-01T00:00:00Z', 1], ['2026-01-01T00:00:15Z']]}]}     | metrics[0].samples[1]",
        "{'metrics': [{'name': 'm', 'samples': [['2026-01-01T00:00:00Z', 'high']]}]}          | metrics[0].samples[0]",
        "{'metrics': [{'name': 'm', 'samples': [['not a time', 1.0]]}]}                       | metrics[0].samples[0]",
        "{'metrics': [{'name': 'm', 'samples': [{'t': 1}]}]}                                  | metrics[0].samples[0]",
        "{'metrics': [{'name': 'm', 'labels': ['gpu']}]}                                      | metrics[0].labels",
        "{'window': {'from': 'soon'}}                                                         | window.from",
        "{'hint': 42}                                                                         | hint",
    })
    void malformedBundlesNameTheOffendingField(String bundle, String field) throws Exception {
        JsonNode node = json(bundle);
        BundleValidationException e = assertThrows(BundleValidationException.class, () -> EvidenceBundle.fromJson(node));
        assertEquals(field, e.field());
        assertTrue(e.getMessage().startsWith(field));
    }

    @Test
    void theRootMustBeAnObject() throws Exception {
        assertEquals("$", assertThrows(BundleValidationException.class,
                () -> EvidenceBundle.fromJson(json("[1, 2]"))).field());
        assertEquals("$", assertThrows(BundleValidationException.class, () -> EvidenceBundle.fromJson(null)).field());
    }

    @Test
    void missingSectionsAreValidAndUnknownKeysIgnored() throws Exception {
        EvidenceBundle b = EvidenceBundle.fromJson(json("{'expect': {'category': 'X'}, 'somethingElse': [1]}"));
        assertNull(b.job());
        assertTrue(b.pods().isEmpty() && b.events().isEmpty() && b.logs().isEmpty() && b.metrics().isEmpty());
        Diagnosis d = new DiagnosisEngine().analyze(b);
        assertEquals(Category.UNKNOWN, d.category());
    }

    @Test
    void timesWithOffsetsAndNumericSamplesAreAccepted() throws Exception {
        EvidenceBundle b = EvidenceBundle.fromJson(json("{'job': {'status': 'running', 'startedAt': '2026-07-13T18:00:00+08:00'},"
                + "'metrics': [{'name': 'DCGM_FI_DEV_GPU_UTIL', 'labels': {'gpu': 0}, 'samples': [[1783936800, '97.5'], ['2026-07-13 10:00:15Z', 96]]}]}"));
        assertEquals("RUNNING", b.job().status());
        assertEquals(Instant.parse("2026-07-13T10:00:00Z"), b.job().startedAt());
        assertEquals(97.5, b.metrics().get(0).samples().get(0).value());
        assertEquals("0", b.metrics().get(0).label("gpu"));
        assertEquals(Instant.parse("2026-07-13T10:00:15Z"), b.metrics().get(0).samples().get(1).time());
    }

    @Test
    void nullsAreLikeMissingValues() throws Exception {
        EvidenceBundle b = EvidenceBundle.fromJson(json("{'job': null, 'logs': [{'time': null, 'pod': null, 'line': 'x'}], 'window': null}"));
        assertNull(b.logs().get(0).time());
        assertNull(b.window());
    }
}
