package io.jobmon.sim.logs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The records on jobmon.logs.lines have Fluent Bit's shape, field order and JSON writing. */
class FluentBitRecordsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant T = Instant.parse("2026-07-13T09:49:48.680123456Z");

    private static ContainerRef ref() {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("jobmon.io/job-id", "job-1");
        labels.put("batch.kubernetes.io/job-name", "job-1");
        return new ContainerRef("jobmon-jobs", "job-1-0-abcde", "0b7e5d3a-8c11-4f2e-a9d0-3c6f1e2b4a55", labels,
                Map.of("batch.kubernetes.io/job-completion-index", "0"), "gpu-a800-01", "10.244.1.2", "main",
                "4452a17edaf2ce71419a6512500fcbc182e1ef30721c8d5703c0c85bfa2b8d1e", "registry.local/llm/trainer@sha256:ab12",
                "registry.local/llm/trainer:24.05");
    }

    private static List<String> keys(JsonNode n) {
        List<String> k = new ArrayList<>();
        n.fieldNames().forEachRemaining(k::add);
        return k;
    }

    @Test
    void aContainerLineIsTheCriParsersFieldsWithTheKubernetesFiltersMetadata() throws Exception {
        String record = FluentBitRecords.container("sim", ref(), T, "stderr", "  0%|          | 9/2262 [01:01<4:13:10,  6.74s/it]");
        JsonNode r = JSON.readTree(record);
        assertEquals(List.of("@timestamp", "time", "stream", "_p", "log", "kubernetes", "cluster"), keys(r));
        assertEquals(1783936188.680123, r.get("@timestamp").asDouble(), 1e-6);
        assertTrue(record.startsWith("{\"@timestamp\":1783936188.680124,\"time\":\"2026-07-13T09:49:48.680123456Z\""), record);
        assertEquals("stderr", r.get("stream").asText());
        assertEquals("F", r.get("_p").asText());
        JsonNode k = r.get("kubernetes");
        assertEquals(List.of("pod_name", "namespace_name", "pod_id", "labels", "annotations", "host", "pod_ip",
                "container_name", "docker_id", "container_hash", "container_image"), keys(k));
        assertEquals("job-1", k.get("labels").get("jobmon.io/job-id").asText());
        assertEquals("gpu-a800-01", k.get("host").asText());
        assertEquals("sim", r.get("cluster").asText());
    }

    @Test
    void nonAsciiAndControlCharactersAreEscapedAsFluentBitEscapesThem() {
        String record = FluentBitRecords.container("sim", ref(), T, "stdout", " 45%|████▌     | \"q\"\t\u007f é 😀");
        assertTrue(record.contains("\"log\":\" 45%|\\u2588\\u2588\\u2588\\u2588\\u258c     | \\\"q\\\"\\t\\u007f \\u00e9 \\ud83d\\ude00\""),
                record);
    }

    @Test
    void aJournalLineIsTheSystemdInputsFields() throws Exception {
        JournalRef kernel = new JournalRef("gpu-a800-01", "boot-1", "machine-1", "kernel", null, 0, "kernel", 3);
        JsonNode r = JSON.readTree(FluentBitRecords.journal("sim", kernel, T,
                "NVRM: Xid (PCI:0000:CB:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus."));
        assertEquals("kernel", r.get("_TRANSPORT").asText());
        assertEquals("kernel", r.get("SYSLOG_IDENTIFIER").asText());
        assertEquals("gpu-a800-01", r.get("_HOSTNAME").asText());
        assertEquals("3", r.get("PRIORITY").asText());
        assertTrue(r.get("MESSAGE").asText().startsWith("NVRM: Xid"));
        JournalRef kubelet = new JournalRef("gpu-a800-01", "boot-1", "machine-1", "kubelet", "kubelet.service", 2817, "stdout", 6);
        JsonNode k = JSON.readTree(FluentBitRecords.journal("sim", kubelet, T, "I0713 ..."));
        assertEquals("kubelet.service", k.get("_SYSTEMD_UNIT").asText());
        assertEquals("2817", k.get("_PID").asText());
    }

    @Test
    void timesArePrintedAsFluentBitAndContainerdPrintThem() {
        assertEquals("1783936188.0", FluentBitJson.double16g(1783936188.0));
        assertEquals("1783936188.68", FluentBitJson.double16g(1783936188.68));
        assertEquals("2026-07-13T09:49:48.68Z", FluentBitRecords.rfc3339Nano(Instant.parse("2026-07-13T09:49:48.680Z")));
        assertEquals("2026-07-13T09:49:48Z", FluentBitRecords.rfc3339Nano(Instant.parse("2026-07-13T09:49:48Z")));
    }
}
