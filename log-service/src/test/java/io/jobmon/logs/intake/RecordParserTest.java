package io.jobmon.logs.intake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.contracts.events.InvalidRecordException;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

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
    void vectorKubernetesLogsRecordIsAUserLine() {
        ShipperLine l = parse(Shippers.record("vector-kubernetes-logs")).get(0);
        assertEquals(StreamKey.user("JOB", "gpu-node-08", "team-nlp", "llama-sft-worker-1", "trainer"), l.stream());
        assertTrue(l.stderr());
        assertEquals(Instant.parse("2026-07-13T10:15:02.499555308Z"), Times.instant(l.timeNanos()));
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
}
