package io.jobmon.events.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.InvalidRecordException;
import io.jobmon.events.k8s.Fixtures;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The two ways of {@link RecordDecoder} give one result: the fast way (streaming, no tree) takes every fixture as
 * the watcher publishes it, and on every odd or invalid variant it either gives exactly what the general way gives
 * or leaves the record to it (so an invalid record is dead-lettered with the general way's reason).
 */
class RecordDecoderTest {

    private static final Instant AT = Instant.parse("2026-12-04T10:00:00Z");

    static List<String> fixtures() throws IOException, URISyntaxException {
        try (Stream<Path> files = Files.list(Path.of(Fixtures.class.getResource("/k8s").toURI()))) {
            return files.map(f -> f.getFileName().toString().replace(".json", "")).sorted().toList();
        }
    }

    /** What the general way says: the record, null (nothing to store) or the reason it is invalid. */
    private static Object general(String value) {
        try {
            return RecordDecoder.general("k", value, 2, 7, AT);
        } catch (InvalidRecordException e) {
            return "invalid: " + e.getMessage();
        }
    }

    /** @return whether the fast way took the record */
    private static boolean agree(String what, String value) {
        Object general = general(value);
        RawRecord fast = RecordDecoder.fast(bytes(value), 2, 7, AT);
        if (fast == null) {
            return false;
        }
        assertTrue(!(general instanceof String), what + ": the fast way took a record the general way refuses: " + general);
        assertEquals(general, fast == RecordDecoder.NOTHING ? null : fast, what);
        Object decoded = RecordDecoder.decode("k", bytes(value), 2, 7, AT);
        assertEquals(general, decoded, what);
        return true;
    }

    @Test
    void everyFixtureTakesTheFastWayAndReadsAsTheParsers() throws Exception {
        int n = 0;
        for (String name : fixtures()) {
            for (String watch : List.of("ADDED", "MODIFIED", "DELETED", "SYNC")) {
                for (String jobId : new String[] {"j-1", null}) {
                    String value = Fixtures.record("c1", watch, Fixtures.json(name), jobId);
                    assertTrue(agree(name + " " + watch + " " + jobId, value), name + " " + watch + ": not the fast way");
                    n++;
                }
            }
        }
        assertTrue(n >= 36 * 8, "fixtures read: " + n);
        RawRecord pod = RecordDecoder.fast(bytes(Fixtures.record("c1", "MODIFIED", Fixtures.json("pod-crashloop"), null)), 0, 1, AT);
        assertNotNull(pod);
        assertEquals("j-7f3a9c", pod.jobId());
        assertEquals(3, pod.pod().containers().get(0).restartCount());
        assertSame(RecordDecoder.NOTHING,
                RecordDecoder.fast(bytes(Fixtures.record("c1", "DELETED", Fixtures.json("event-scheduled"), null)), 0, 1, AT));
    }

    /** Variants of the objects: odd types, fields missing, twice, in another order, invalid ones. */
    static Map<String, Consumer<ObjectNode>> objectVariants() {
        Map<String, Consumer<ObjectNode>> v = new LinkedHashMap<>();
        v.put("no uid", o -> meta(o).remove("uid"));
        v.put("uid empty", o -> meta(o).put("uid", ""));
        v.put("resourceVersion not a number", o -> meta(o).put("resourceVersion", "abc"));
        v.put("resourceVersion as a JSON number", o -> meta(o).put("resourceVersion", 123));
        v.put("resourceVersion missing", o -> meta(o).remove("resourceVersion"));
        v.put("name empty", o -> meta(o).put("name", ""));
        v.put("name missing", o -> meta(o).remove("name"));
        v.put("name a number", o -> meta(o).put("name", 5));
        v.put("metadata null", o -> o.putNull("metadata"));
        v.put("kind missing", o -> o.remove("kind"));
        v.put("kind Node", o -> o.put("kind", "Node"));
        v.put("kind last", o -> {
            String kind = o.remove("kind").asText();
            o.put("kind", kind);
        });
        v.put("creationTimestamp odd", o -> meta(o).put("creationTimestamp", "yesterday"));
        v.put("creationTimestamp a number", o -> meta(o).put("creationTimestamp", 17));
        v.put("creationTimestamp with offset", o -> meta(o).put("creationTimestamp", "2025-03-04T10:00:00+01:00"));
        v.put("labels null", o -> meta(o).putNull("labels"));
        v.put("job label empty", o -> meta(o).putObject("labels").put("jobmon.io/job-id", ""));
        v.put("ownerReferences an object", o -> meta(o).putObject("ownerReferences").put("kind", "Job"));
        v.put("two Job owners, the first nameless", o -> {
            ArrayNode refs = meta(o).putArray("ownerReferences");
            refs.addObject().put("kind", "Job");
            refs.addObject().put("kind", "Job").put("name", "second");
        });
        v.put("conditions null", o -> status(o).putNull("conditions"));
        v.put("conditions an object", o -> status(o).putObject("conditions").putObject("a").put("type", "Ready"));
        v.put("condition a string", o -> status(o).putArray("conditions").add("Ready"));
        v.put("containerStatuses an object", o -> status(o).putObject("containerStatuses").putObject("c").put("name", "x"));
        v.put("container state null", o -> container(o).putNull("state"));
        v.put("container waiting null", o -> container(o).putObject("state").putNull("waiting"));
        v.put("container terminated and running", o -> {
            ObjectNode state = container(o).putObject("state");
            state.putObject("running").put("startedAt", "2025-03-04T09:00:00Z");
            state.putObject("terminated").put("exitCode", 2).put("reason", "Error");
        });
        v.put("exitCode null", o -> container(o).putObject("state").putObject("terminated").putNull("exitCode"));
        v.put("exitCode a string", o -> container(o).putObject("state").putObject("terminated").put("exitCode", "137"));
        v.put("exitCode huge", o -> container(o).putObject("state").putObject("terminated").put("exitCode", 1L << 40));
        v.put("restartCount null", o -> container(o).putNull("restartCount"));
        v.put("restartCount a float", o -> container(o).put("restartCount", 2.5));
        v.put("lastState terminated null", o -> container(o).putObject("lastState").putNull("terminated"));
        v.put("status a string", o -> o.put("status", "Running"));
        v.put("spec null", o -> o.putNull("spec"));
        v.put("involvedObject null", o -> o.putNull("involvedObject"));
        v.put("involvedObject moved to regarding", o -> {
            JsonNode about = o.remove("involvedObject");
            if (about != null) {
                o.set("regarding", about);
            }
        });
        v.put("involvedObject and regarding", o -> o.putObject("regarding").put("kind", "Node").put("name", "n1"));
        v.put("involvedObject without kind", o -> o.putObject("involvedObject").put("name", "p"));
        v.put("series null", o -> o.putNull("series"));
        v.put("series with count and time", o -> o.putObject("series").put("count", 9)
                .put("lastObservedTime", "2025-03-04T09:30:00.123456Z"));
        v.put("count a string", o -> o.put("count", "5"));
        v.put("count null", o -> o.putNull("count"));
        v.put("count zero", o -> o.put("count", 0));
        v.put("deprecatedCount only", o -> {
            o.remove("count");
            o.put("deprecatedCount", 4);
        });
        v.put("message null, note set", o -> o.putNull("message").put("note", "the note"));
        v.put("message missing, note set", o -> {
            o.remove("message");
            o.put("note", "the note");
        });
        v.put("source missing", o -> o.remove("source"));
        v.put("source null", o -> o.putNull("source"));
        v.put("source empty, reportingController", o -> {
            o.putObject("source");
            o.remove("reportingComponent");
            o.put("reportingController", "job-controller");
        });
        v.put("no times", o -> {
            for (String f : List.of("firstTimestamp", "lastTimestamp", "eventTime", "series")) {
                o.remove(f);
            }
            meta(o).remove("creationTimestamp");
        });
        v.put("eventTime only", o -> {
            o.putNull("firstTimestamp");
            o.remove("lastTimestamp");
            o.put("eventTime", "2025-03-04T09:00:01.500000Z");
        });
        v.put("type a number", o -> o.put("type", 3));
        v.put("unknown fields everywhere", o -> {
            o.putObject("zzz").putArray("a").addObject().put("b", 1);
            meta(o).putArray("managedFields").addObject().putObject("fieldsV1").put("f:x", true);
        });
        return v;
    }

    @Test
    void oddObjectsAreReadAsTheParsersReadThemOrLeftToThem() throws Exception {
        int fast = 0;
        int general = 0;
        for (String name : fixtures()) {
            for (Map.Entry<String, Consumer<ObjectNode>> variant : objectVariants().entrySet()) {
                ObjectNode o = (ObjectNode) Fixtures.json(name);
                variant.getValue().accept(o);
                if (agree(name + " / " + variant.getKey(), Fixtures.record("c1", "MODIFIED", o, null))) {
                    fast++;
                } else {
                    general++;
                }
            }
        }
        assertTrue(fast > 100 && general > 100, "fast " + fast + ", general " + general);
    }

    @Test
    void oddEnvelopesAreLeftToTheEnvelopeCheck() {
        String good = Fixtures.record("c1", "MODIFIED", Fixtures.json("pod-running"), "j-1");
        List<String> values = new ArrayList<>(List.of("", " ", "null", "[]", "{", "not json", "{}", good + " trailing"));
        Map<String, Consumer<ObjectNode>> envelope = new LinkedHashMap<>();
        envelope.put("specversion 0.3", e -> e.put("specversion", "0.3"));
        envelope.put("specversion missing", e -> e.remove("specversion"));
        envelope.put("type other", e -> e.put("type", "io.jobmon.job.status.v1"));
        envelope.put("id missing", e -> e.remove("id"));
        envelope.put("id a number", e -> e.put("id", 12));
        envelope.put("time odd", e -> e.put("time", "now"));
        envelope.put("time a number", e -> e.put("time", 1700000000));
        envelope.put("data null", e -> e.putNull("data"));
        envelope.put("data a string", e -> e.put("data", "x"));
        envelope.put("cluster blank", e -> data(e).put("cluster", " "));
        envelope.put("cluster missing", e -> data(e).remove("cluster"));
        envelope.put("object a string", e -> data(e).put("object", "pod"));
        envelope.put("object null", e -> data(e).putNull("object"));
        envelope.put("jobId empty", e -> data(e).put("jobId", ""));
        envelope.put("jobId a number", e -> data(e).put("jobId", 7));
        envelope.put("watchType null", e -> data(e).putNull("watchType"));
        envelope.put("data first", e -> {
            JsonNode d = e.remove("data");
            ObjectNode copy = e.deepCopy();
            e.removeAll();
            e.set("data", d);
            e.setAll(copy);
        });
        envelope.put("extension attribute", e -> e.put("traceparent", "00-ab-cd-01"));
        for (Map.Entry<String, Consumer<ObjectNode>> variant : envelope.entrySet()) {
            ObjectNode e = (ObjectNode) json(good);
            variant.getValue().accept(e);
            values.add(e.toString());
        }
        values.add(good.replaceFirst("\"cluster\":\"c1\"", "\"cluster\":\"c1\",\"cluster\":\"c2\""));
        values.add(good.replaceFirst("\"specversion\":\"1.0\"", "\"specversion\":\"1.0\",\"specversion\":\"0.3\""));
        values.add(good.replaceFirst("\"uid\":", "\"uid\":\"u-first\",\"uid\":"));
        values.add(good.replaceFirst("\"phase\":", "\"phase\":\"Pending\",\"phase\":"));
        int taken = 0;
        for (String value : values) {
            if (agree(value.length() > 60 ? value.substring(0, 60) : value, value)) {
                taken++;
            }
        }
        assertTrue(taken >= 4, "the harmless variants take the fast way: " + taken);
        assertNull(RecordDecoder.fast(bytes(values.get(0)), 0, 1, AT));
    }

    private static byte[] bytes(String value) {
        return value.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aBadByteIsFoundWhereverItSitsInTheEightByteSteps() {
        for (int length = 1; length <= 19; length++) {
            for (int at = 0; at < length; at++) {
                byte[] b = new byte[length];
                java.util.Arrays.fill(b, (byte) 'a');
                b[at] = (byte) 0xFF; // never in UTF-8
                assertEquals(false, RecordDecoder.wellFormedUtf8(b), length + "/" + at);
                b[at] = (byte) 0x7F;
                assertTrue(RecordDecoder.wellFormedUtf8(b), length + "/" + at);
                if (at + 1 < length) {
                    b[at] = (byte) 0xC3; // é, split across a step or not
                    b[at + 1] = (byte) 0xA9;
                    assertTrue(RecordDecoder.wellFormedUtf8(b), length + "/" + at);
                    b[at + 1] = (byte) 'a'; // a lead byte without its continuation
                    assertEquals(false, RecordDecoder.wellFormedUtf8(b), length + "/" + at);
                }
            }
        }
    }

    @Test
    void recordsThatAreNotWellFormedUtf8AreReadAsKafkasStringDeserializerReadsThem() {
        String good = Fixtures.record("c1", "MODIFIED", Fixtures.json("event-backoff-1"), "j-1");
        byte[] utf8 = bytes(good.replace("Back-off", "Back-off 重启"));
        assertNotNull(RecordDecoder.fast(utf8, 0, 1, AT), "well-formed UTF-8 takes the fast way");
        assertTrue(RecordDecoder.decode("k", utf8, 0, 1, AT).event().message().contains("重启"));
        byte[] malformed = bytes(good.replace("Back-off", "Back-off XYZ"));
        int at = new String(malformed, StandardCharsets.ISO_8859_1).indexOf("XYZ");
        malformed[at] = (byte) 0xED; // an encoded surrogate: Java's decoder makes U+FFFD of it, Jackson would not
        malformed[at + 1] = (byte) 0xA0;
        malformed[at + 2] = (byte) 0x80;
        assertNull(RecordDecoder.fast(malformed, 0, 1, AT));
        RawRecord r = RecordDecoder.decode("k", malformed, 0, 1, AT);
        assertTrue(r.event().message().contains("\uFFFD"), r.event().message());
        assertEquals(RecordDecoder.general("k", new String(malformed, StandardCharsets.UTF_8), 0, 1, AT), r);
        byte[] spaced = bytes(" " + good);
        assertNull(RecordDecoder.fast(spaced, 0, 1, AT), "a leading space: the general way");
        assertEquals(RecordDecoder.general("k", " " + good, 0, 1, AT), RecordDecoder.decode("k", spaced, 0, 1, AT));
    }

    private static JsonNode json(String value) {
        try {
            return CloudEvents.MAPPER.readTree(value);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static ObjectNode data(ObjectNode envelope) {
        return (ObjectNode) envelope.get("data");
    }

    private static ObjectNode meta(ObjectNode o) {
        return o.get("metadata") instanceof ObjectNode m ? m : o.putObject("metadata");
    }

    private static ObjectNode status(ObjectNode o) {
        return o.get("status") instanceof ObjectNode s ? s : o.putObject("status");
    }

    private static ObjectNode container(ObjectNode o) {
        JsonNode list = status(o).get("containerStatuses");
        if (list instanceof ArrayNode a && a.size() > 0 && a.get(0) instanceof ObjectNode c) {
            return c;
        }
        ObjectNode c = status(o).putArray("containerStatuses").addObject();
        c.put("name", "trainer");
        return c;
    }
}
