package io.jobmon.logs.intake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.contracts.events.InvalidRecordException;
import io.jobmon.logs.chunk.StreamKey;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The shippers' own record forms, as their Kafka outputs write them. */
class RecordParserTest {

    private final RecordParser parser = Shippers.parser();

    private List<ShipperLine> parse(String record) {
        return parser.parse(record, 0).lines();
    }

    @Test
    void fluentBitCriRecordWithTheJobLabelIsAUserLineOfThatJob() {
        ShipperLine l = parse(Shippers.record("fluent-bit-cri")).get(0);
        assertEquals(StreamKey.user("JOB", "gpu-node-07", "team-nlp", "llama-sft-worker-0", "trainer"), l.stream());
        assertEquals("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB", l.text());
        assertTrue(l.stderr());
        assertEquals(Instant.parse("2026-07-13T10:14:59.123456Z"), Times.instant(l.timeNanos()), "@timestamp, a double");
    }

    @Test
    void fluentBitDockerRecordLosesItsTrailingNewlineAndTakesTheIso8601Timestamp() {
        ShipperLine l = parse(Shippers.record("fluent-bit-docker-iso8601", null, "p1")).get(0);
        assertEquals("{'loss': 1.2345, 'learning_rate': 2e-05, 'epoch': 0.12}", l.text());
        assertNull(l.stream().jobId(), "no job label: resolved from the job's pods later");
        assertEquals("p1", l.stream().pod());
        assertFalse(l.stderr());
        assertEquals(Instant.parse("2026-07-13T10:15:00Z"), Times.instant(l.timeNanos()));
    }

    @Test
    void aJsonArrayMessageGivesEveryRecordOfIt() {
        List<ShipperLine> lines = parse(Shippers.record("fluent-bit-array"));
        assertEquals(2, lines.size());
        assertTrue(lines.get(1).text().contains("120/1000"));
        assertEquals(Instant.parse("2026-07-13T10:15:01.5Z"), Times.instant(lines.get(0).timeNanos()));
    }

    @Test
    void aRecordThatIsNotValidUtf8IsStoredWithReplacementCharactersNotDeadLettered() {
        byte[] good = Shippers.record("fluent-bit-cri").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        String marker = "CUDA out of memory";
        int at = new String(good, java.nio.charset.StandardCharsets.ISO_8859_1).indexOf(marker);
        byte[] bad = good.clone();
        bad[at] = (byte) 0xC3; // a lead byte followed by an ASCII byte: invalid UTF-8, as binary output in a log can be
        ShipperLine l = parser.parse(bad, 0).lines().get(0);
        assertTrue(l.text().contains("\uFFFDUDA out of memory"), l.text());
        assertEquals("llama-sft-worker-0", l.stream().pod());
    }

    @Test
    void vectorKubernetesLogsRecordIsAUserLine() {
        ShipperLine l = parse(Shippers.record("vector-kubernetes-logs")).get(0);
        assertEquals(StreamKey.user("JOB", "gpu-node-08", "team-nlp", "llama-sft-worker-1", "trainer"), l.stream());
        assertTrue(l.stderr());
        assertEquals(Instant.parse("2026-07-13T10:15:02.499555308Z"), Times.instant(l.timeNanos()));
    }

    /** The pod's UID and container id (what the kernel's cgroup paths and containerd name) come with each line. */
    @Test
    void containerRecordsCarryThePodsUidAndContainerIdOnEveryPath() {
        PodIdentity fb = new PodIdentity("team-nlp", "llama-sft-worker-0", "5f0c2a8e-4b7d-4a8f-9c61-0d3b7f2e1a11",
                "3e5b1c9a8f7d6e5c4b3a2918f7e6d5c4b3a29180f7e6d5c4b3a29180f7e6d5c4", "gpu-node-07");
        PodIdentity vector = new PodIdentity("team-nlp", "llama-sft-worker-1", "93bde4d0-9731-4785-a80e-cd27ba8ad7c2",
                "f24c81dcd531c5d353751c77fe0556a4f602f7714c72b9a58f9b26c0628f1fa6", "gpu-node-08");
        for (int i = 0; i < 2; i++) { // the second time from the known metadata
            assertEquals(fb, parse(Shippers.record("fluent-bit-cri")).get(0).identity());
            assertEquals(vector, parse(Shippers.record("vector-kubernetes-logs")).get(0).identity(), "containerd:// dropped");
        }
        assertEquals(fb, parser.parseFullTree(Shippers.record("fluent-bit-cri"), 0).lines().get(0).identity());
        assertEquals(vector, parser.parseFullTree(Shippers.record("vector-kubernetes-logs"), 0).lines().get(0).identity());
        String flat = "{\"message\":\"hello\",\"kubernetes.pod_name\":\"p\",\"kubernetes.pod_namespace\":\"ns\","
                + "\"kubernetes.pod_uid\":\"93BDE4D0-9731-4785-A80E-CD27BA8AD7C2\",\"kubernetes.container_id\":\"containerd://"
                + vector.containerId() + "\",\"kubernetes.container_name\":\"c\",\"kubernetes.pod_node_name\":\"n1\"}";
        assertEquals(new PodIdentity("ns", "p", vector.uid(), vector.containerId(), "n1"), parse(flat).get(0).identity());
        // a record naming neither carries none; a system line none
        assertNull(parse("{\"log\":\"x\",\"kubernetes\":{\"pod_name\":\"p\",\"host\":\"n\"}}").get(0).identity());
        assertNull(parse(Shippers.record("fluent-bit-systemd-kubelet")).get(0).identity());
    }

    @Test
    void vectorFlatDottedKeysAreReadLikeNestedOnes() {
        String flat = "{\"message\":\"hello\",\"timestamp\":\"2026-07-13T10:15:02Z\",\"stream\":\"stdout\","
                + "\"kubernetes.pod_name\":\"p\",\"kubernetes.pod_namespace\":\"ns\",\"kubernetes.container_name\":\"c\","
                + "\"kubernetes.pod_node_name\":\"n1\",\"kubernetes.pod_labels\":{\"jobmon.io/job-id\":\"j9\"}}";
        assertEquals(StreamKey.user("j9", "n1", "ns", "p", "c"), parse(flat).get(0).stream());
    }

    @Test
    void kubeletJournalLineIsASystemLineOfItsNode() {
        ShipperLine l = parse(Shippers.record("fluent-bit-systemd-kubelet")).get(0);
        assertEquals(StreamKey.system("gpu-node-07", "kubelet"), l.stream());
        assertTrue(l.text().contains("CrashLoopBackOff"));
    }

    @Test
    void kernelXidLineFromVectorJournaldIsASystemLineTimedByTheJournal() {
        ShipperLine l = parse(Shippers.record("vector-journald-kernel")).get(0);
        assertEquals(StreamKey.system("gpu-node-07", "kernel"), l.stream());
        assertEquals(Instant.parse("2026-07-13T10:14:57.000443Z"), Times.instant(l.timeNanos()));
    }

    @Test
    void kmsgOomKillerLineIsAKernelLine() {
        ShipperLine l = parse(Shippers.record("fluent-bit-kmsg")).get(0);
        assertEquals(StreamKey.system("gpu-node-07", "kernel"), l.stream());
        assertEquals(Instant.parse("2026-07-13T10:14:56.500123Z"), Times.instant(l.timeNanos()));
    }

    @Test
    void devicePluginContainerLinesAreSystemLinesOfTheNode() {
        ShipperLine l = parse(Shippers.record("fluent-bit-device-plugin")).get(0);
        assertEquals(StreamKey.system("gpu-node-07", "nvidia-device-plugin-ctr"), l.stream());
    }

    @Test
    void journalLinesOfOtherUnitsAreCountedNotKept() {
        RecordParser.Parsed p = parser.parse(Shippers.record("vector-journald-sshd"), 0);
        assertTrue(p.lines().isEmpty());
        assertEquals(1, p.ignored());
    }

    @Test
    void jobmonCloudEventCarriesSeveralLines() {
        List<ShipperLine> lines = parse(Shippers.record("jobmon-cloudevent"));
        assertEquals(2, lines.size());
        assertEquals(StreamKey.user("JOB", "gpu-node-07", "team-nlp", "llama-sft-worker-0", "trainer"), lines.get(0).stream());
        assertEquals(1, lines.get(1).timeNanos() - lines.get(0).timeNanos());
    }

    @Test
    void aRecordWithoutTimeTakesTheKafkaTimestamp() {
        String r = "{\"log\":\"x\",\"kubernetes\":{\"pod_name\":\"p\",\"namespace_name\":\"n\",\"container_name\":\"c\"}}";
        assertEquals(42L, parser.parse(r, 42L).lines().get(0).timeNanos());
    }

    @Test
    void invalidRecordsSayWhatIsWrong() {
        assertTrue(assertThrows(InvalidRecordException.class, () -> parse("hello")).getMessage().startsWith("not JSON: "));
        assertTrue(assertThrows(InvalidRecordException.class, () -> parse("{\"log\":\"x\"}")).getMessage()
                .contains("no 'kubernetes' metadata"));
        assertTrue(assertThrows(InvalidRecordException.class, () -> parse("{\"foo\":1}")).getMessage()
                .contains("not a Fluent Bit, Vector or jobmon log record"));
        assertTrue(assertThrows(InvalidRecordException.class,
                () -> parse("{\"msg\":\"Out of memory\",\"sec\":1,\"usec\":2}")).getMessage().contains("hostname"));
        assertTrue(assertThrows(InvalidRecordException.class, () -> parse("[{\"log\":\"x\",\"kubernetes\":"
                + "{\"pod_name\":\"p\"}}, 3]")).getMessage().startsWith("entry [1]"));
        assertTrue(assertThrows(InvalidRecordException.class, () -> parse("{\"@timestamp\":\"yesterday\",\"log\":\"x\","
                + "\"kubernetes\":{\"pod_name\":\"p\"}}")).getMessage().contains("'@timestamp' is not a time"));
    }

    /**
     * The intake reads only the fields it needs (a streaming parser skips the rest): on every shipper form, and on
     * odd ones (numbers or objects where text is expected, duplicate keys, labels that are no object, non-object
     * array entries, broken JSON), its answer or its refusal is the one the full JSON tree gives.
     */
    @ParameterizedTest
    @ValueSource(strings = {"fluent-bit-array", "fluent-bit-cri", "fluent-bit-device-plugin", "fluent-bit-docker-iso8601",
        "fluent-bit-kmsg", "fluent-bit-systemd-kubelet", "jobmon-cloudevent", "vector-journald-kernel",
        "vector-journald-sshd", "vector-kubernetes-logs"})
    void readingOnlyTheNeededFieldsGivesWhatTheFullTreeGivesForEveryShipperForm(String name) {
        assertSameAnswer(Shippers.record(name));
        assertSameAnswer(Shippers.record(name, "j-1", "p-1"));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{\"log\":42,\"kubernetes\":{\"pod_name\":\"p\",\"labels\":{\"jobmon.io/job-id\":7}}}",
        "{\"log\":{\"a\":[1,2]},\"stream\":true,\"kubernetes\":{\"pod_name\":\"p\",\"labels\":\"x\"}}",
        "{\"log\":\"a\",\"log\":\"b\",\"kubernetes\":{\"pod_name\":\"p\",\"pod_name\":\"q\",\"host\":null}}",
        "{\"log\":\"x\",\"@timestamp\":1783937699.1234567,\"kubernetes\":{\"pod_name\":\"p\",\"pod_labels\":{\"jobmon.io/job-id\":\"j\",\"x\":{}}}}",
        "{\"log\":\"x\",\"@timestamp\":1783937699,\"kubernetes\":{\"pod_name\":\"p\",\"labels\":{\"jobmon.io/job-id\":\"j\"},\"pod_labels\":{\"jobmon.io/job-id\":\"k\"}}}",
        "{\"message\":\"m\",\"kubernetes.pod_name\":\"p\",\"kubernetes.pod_labels\":{\"jobmon.io/job-id\":\"j\"},\"kubernetes.host\":\"n\"}",
        "{\"kubernetes\":\"not an object\",\"log\":\"x\"}",
        "{\"kubernetes\":{\"pod_name\":[\"p\"]},\"log\":\"x\"}",
        "{\"msg\":\"oom\",\"sec\":\"17\",\"usec\":5.5,\"hostname\":\"n\"}",
        "{\"MESSAGE\":\"m\",\"_SYSTEMD_UNIT\":\"kubelet.service\",\"_HOSTNAME\":\"n\",\"__REALTIME_TIMESTAMP\":\"x\"}",
        "[{\"log\":\"x\",\"kubernetes\":{\"pod_name\":\"p\"}}, 3]",
        "[{\"log\":\"x\",\"kubernetes\":{\"pod_name\":\"p\"}}, [1]]",
        "[]",
        "17",
        "\"text\"",
        "{\"log\":\"x\",\"kubernetes\":{\"pod_name\":\"p\"}} trailing",
        "{\"log\":\"x\",\"kubernetes\":{\"pod_name\":\"p\"}",
        "{\"log\":\"x\",\"kubernetes\":{\"pod_name\":\"p\",}}",
        "{\"specversion\":\"1.0\",\"type\":\"other\",\"data\":{}}",
        "{\"log\":12345678901234,\"stream\":123456789012345678901234567890,\"time\":-1.5e3,\"kubernetes\":{\"pod_name\":1e400}}",
        "{\"log\":\"x\",\"@timestamp\":1.7839376991234567E9,\"kubernetes\":{\"pod_name\":\"p\",\"host\":0.1}}",
        // the fast path's edges: escapes, line ends, other scripts, nulls, duplicates, odd kubernetes objects
        "{\"log\":\"say \\\"hi\\\"\\tnow\\n\",\"kubernetes\":{\"pod_name\":\"p\"}}",
        "{\"log\":\"crlf\\r\\n\",\"kubernetes\":{\"pod_name\":\"p\"}}",
        "{\"log\":\"two\\n\\n\",\"kubernetes\":{\"pod_name\":\"p\"}}",
        "{\"log\":\"\\n\",\"kubernetes\":{\"pod_name\":\"p\"}}",
        "{\"log\":\"\",\"kubernetes\":{\"pod_name\":\"p\"}}",
        "{\"log\":\"cr only\\r\",\"kubernetes\":{\"pod_name\":\"p\"}}",
        "{\"log\":\"caf\\u00e9 \\ud83d\\ude80\",\"kubernetes\":{\"pod_name\":\"p\"}}",
        "{\"log\":\" 42%|████▏     | 420/1000 训练 🚀\",\"kubernetes\":{\"pod_name\":\"p\"}}",
        "{\"log\":\"tab\tinside\",\"kubernetes\":{\"pod_name\":\"p\"}}",
        "{\"log\":null,\"message\":\"m\",\"kubernetes\":{\"pod_name\":\"p\"}}",
        "{\"log\":null,\"kubernetes\":{\"pod_name\":\"p\"}}",
        "{\"log\":\"a\",\"log\":null,\"message\":\"b\",\"kubernetes\":{\"pod_name\":\"p\"}}",
        "{\"message\":\"m\",\"log\":\"l\",\"kubernetes\":{\"pod_name\":\"p\"}}",
        "{\"@timestamp\":null,\"timestamp\":\"2026-07-13T10:15:02.5+08:00\",\"time\":\"bad\",\"log\":\"x\",\"kubernetes\":{\"pod_name\":\"p\"}}",
        "{\"time\":\"2026-07-13T10:15:02Z\",\"@timestamp\":\"1783937699.25\",\"log\":\"x\",\"kubernetes\":{\"pod_name\":\"p\"}}",
        "{\"date\":true,\"log\":\"x\",\"kubernetes\":{\"pod_name\":\"p\"}}",
        "{\"stream\":\"stderr\",\"stream\":null,\"log\":\"x\",\"kubernetes\":{\"pod_name\":\"p\"}}",
        "{\"log\":\"x\",\"kubernetes\":{\"pod_name\":\"p\",\"labels\":null,\"pod_labels\":{\"jobmon.io/job-id\":\"k\"}}}",
        "{\"log\":\"x\",\"kubernetes\":{\"pod_name\":\"p\",\"labels\":[1],\"pod_labels\":{\"jobmon.io/job-id\":\"k\"}}}",
        "{\"log\":\"x\",\"kubernetes\":{\"pod_name\":\"p\",\"labels\":{\"jobmon.io/job-id\":null,\"a\":[{}]}}}",
        "{\"log\":\"x\",\"kubernetes\":{\"pod_name\":\"p\",\"labels\":{\"jobmon.io/job-id\":\"j\",\"jobmon.io/job-id\":\"k\"}}}",
        "{\"log\":\"x\",\"kubernetes\":{\"pod_name\":\"p\",\"host\":\"n1\"},\"kubernetes\":{\"pod_name\":\"q\"}}",
        "{\"log\":\"x\",\"kubernetes\":{\"pod_name\":\"p\"},\"kubernetes\":\"gone\"}",
        "{\"log\":\"x\",\"kubernetes\":{\"pod_name\":null,\"pod_name\":\"p\",\"pod_namespace\":\"v\",\"pod_node_name\":\"n2\"}}",
        "{\"log\":\"x\",\"kubernetes\":{\"pod_name\":\"p\",\"container_name\":\"nvidia-device-plugin-ctr\"}}",
        "{\"log\":\"x\",\"kubernetes\":{\"pod_name\":\"p\",\"container_name\":\"nvidia-device-plugin-ctr\",\"host\":\"n\"}}",
        "{\"log\":\"x\",\"kubernetes\":{\"pod_name\":\"p\"},\"kubernetes.pod_name\":\"q\"}",
        "{\"log\":\"x\",\"kubernetes\":{\"pod_name\":\"p\"},\"specversion\":\"1.0\"}",
        "{\"log\":\"x\",\"kubernetes\":{\"pod_name\":\"p\"},\"_SYSTEMD_UNIT\":\"kubelet.service\",\"MESSAGE\":\"m\"}",
        "{\"log\":\"unterminated,\"kubernetes\":{\"pod_name\":\"p\"}}",
        "{\"log\":\"x\",\"kubernetes\":{\"pod_name\":\"p\"}}]",
        "  {\"log\":\"x\",\"kubernetes\":{\"pod_name\":\"p\"}}  ",
    })
    void readingOnlyTheNeededFieldsGivesWhatTheFullTreeGivesForOddRecords(String record) {
        assertSameAnswer(record);
    }

    /**
     * The common forms are read by the fast path, their text left as the record's bytes, also where the record lies
     * inside a larger buffer (as Kafka hands it over); lines that must be decoded or refused go the general way.
     */
    @Test
    void commonContainerRecordsKeepTheirTextAsTheRecordsBytes() {
        for (String name : List.of("fluent-bit-cri", "fluent-bit-docker-iso8601", "vector-kubernetes-logs")) {
            String record = Shippers.record(name);
            byte[] inside = ("xx" + record + "yyy").getBytes(java.nio.charset.StandardCharsets.UTF_8);
            RecordParser.Parsed p = parser.parse(inside, 2, inside.length - 5, 99);
            assertEquals(parser.parseFullTree(record, 99), p, name);
            assertTrue(p.lines().get(0).bytes(), name + " takes the fast path");
        }
        // a record in UTF-16 has no byte positions: read all the same, its text decoded
        String cri = Shippers.record("fluent-bit-cri");
        for (int i = 0; i < 2; i++) {
            assertEquals(parser.parseFullTree(cri, 99), parser.parse(cri.getBytes(java.nio.charset.StandardCharsets.UTF_16BE), 99));
        }
        String escaped = "{\"log\":\"a \\\"quoted\\\" word\",\"kubernetes\":{\"pod_name\":\"p\"}}";
        ShipperLine l = parse(escaped).get(0);
        assertEquals("a \"quoted\" word", l.text());
        assertFalse(l.bytes(), "an escaped line is decoded");
        byte[] tqdm = "{\"log\":\" 42%|████▏     | 420/1000\\n\",\"kubernetes\":{\"pod_name\":\"p\"}}"
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
        l = parser.parse(tqdm, 0).lines().get(0);
        assertEquals(" 42%|████▏     | 420/1000", l.text());
        assertTrue(l.bytes());
    }

    /**
     * One parser through many records, as a decode thread reads them: a container's metadata, read once, is then
     * recognised by its bytes. Containers recur, there are more of them than it keeps, the metadata is the record's
     * last field or fields follow it; every answer is the full tree's.
     */
    @Test
    void aContainersMetadataIsReadOnceAndRecognisedOnItsNextRecords() {
        for (int i = 0; i < 400; i++) {
            int c = i < 200 ? i % 80 : i % 10;
            String k8s = "{\"pod_name\":\"pod-" + c + "\",\"namespace_name\":\"ns\",\"labels\":{\"jobmon.io/job-id\":\"job-"
                    + c % 3 + "\"},\"host\":\"node-" + c % 5 + "\",\"container_name\":\""
                    + (c % 7 == 0 ? "nvidia-device-plugin-ctr" : "trainer") + "\"}";
            String line = "\"line " + i + "\"";
            String record = switch (i % 5) {
                case 0 -> "{\"@timestamp\":" + (1783937699 + i) + ".5,\"log\":" + line + ",\"kubernetes\":" + k8s + "}";
                case 1 -> "{\"log\":" + line + ",\"kubernetes\":" + k8s + ",\"stream\":\"stderr\"}";
                case 2 -> "{\"log\":" + line + ",\"kubernetes\":" + k8s + " ,\"log\":null,\"message\":\"m\"}";
                case 3 -> "{\"kubernetes\":" + k8s + ",\"kubernetes.pod_name\":\"x\",\"log\":" + line + "}";
                default -> "{\"log\":" + line + ",\"kubernetes\":" + k8s + "\n}";
            };
            assertEquals(parser.parseFullTree(record, 7), parser.parse(record, 7), record);
        }
    }

    private void assertSameAnswer(String record) {
        RecordParser.Parsed full = null;
        String fullError = null;
        try {
            full = parser.parseFullTree(record, 99);
        } catch (InvalidRecordException e) {
            fullError = e.getMessage();
        }
        RecordParser.Parsed selective = null;
        String selectiveError = null;
        try {
            selective = parser.parse(record, 99);
        } catch (InvalidRecordException e) {
            selectiveError = e.getMessage();
        }
        assertEquals(fullError, selectiveError, record);
        assertEquals(full, selective, record);
    }
}
