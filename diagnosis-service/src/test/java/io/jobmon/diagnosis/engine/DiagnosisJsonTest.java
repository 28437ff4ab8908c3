package io.jobmon.diagnosis.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** The diagnosis serialises to exactly the contract's JSON with a plain ObjectMapper. */
class DiagnosisJsonTest {

    private final ObjectMapper plain = new ObjectMapper();

    @Test
    void fieldNamesEnumsAndTimesFollowTheContract() throws Exception {
        Diagnosis d = new Diagnosis(Category.GPU_OOM, "CUDA out of memory on w-0",
                List.of(new Evidence(Evidence.LOG, Instant.parse("2026-07-13T10:14:59Z"), "w-0", "torch.OutOfMemoryError: ...")),
                "Lower the batch size", Action.TERMINATE, 0.95, List.of(Category.CONTAINER_OOM));
        JsonNode json = plain.readTree(plain.writeValueAsString(d));
        List<String> names = new ArrayList<>();
        json.fieldNames().forEachRemaining(names::add);
        assertEquals(List.of("category", "summary", "evidence", "suggestion", "action", "confidence", "related"), names);
        assertEquals("GPU_OOM", json.get("category").asText());
        assertEquals("TERMINATE", json.get("action").asText());
        assertEquals(0.95, json.get("confidence").asDouble());
        assertEquals("CONTAINER_OOM", json.get("related").get(0).asText());
        JsonNode ev = json.get("evidence").get(0);
        List<String> evNames = new ArrayList<>();
        ev.fieldNames().forEachRemaining(evNames::add);
        assertEquals(List.of("source", "time", "pod", "text"), evNames);
        assertEquals("log", ev.get("source").asText());
        assertEquals("2026-07-13T10:14:59.000Z", ev.get("time").asText(), "the API's one time format");
    }

    @Test
    void roundTripsThroughJackson() throws Exception {
        Diagnosis d = new DiagnosisEngine().analyze(BundleBuilder.job("FAILED")
                .pod("w-0", "n1", "Failed", "terminated", "OOMKilled", 137, 1)
                .log("2026-07-13T10:00:00.123Z", "w-0", "Memory cgroup out of memory: Killed process 12 (python)").build());
        String text = plain.writeValueAsString(d);
        assertTrue(text.contains("\"time\":\"2026-07-13T10:00:00.123Z\"") || text.contains("\"time\":null"), text);
        assertEquals(d, plain.readValue(text, Diagnosis.class));
    }

    @Test
    void analysisOfAnyBundleSerialises() throws Exception {
        Diagnosis d = new DiagnosisEngine().analyze(BundleBuilder.job("RUNNING").build(), Locale.CHINESE);
        JsonNode json = plain.readTree(plain.writeValueAsString(d));
        assertTrue(json.get("evidence").isArray());
        assertTrue(json.get("related").isArray());
    }
}
