package io.jobmon.logs.intake;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.jobmon.logs.chunk.StreamKey;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The intake's fast path for the form nearly every line comes in: one Fluent Bit or Vector container record, a JSON
 * object with a nested {@code kubernetes} object. Jackson's streaming parser reads the few fields used straight into
 * this reader's fields (no tree), and the line's text stays the record's own UTF-8 bytes when it needs no unescaping
 * (at most a trailing {@code \n} of the docker form, dropped anyway) and is valid UTF-8. A container's
 * {@code kubernetes} object, the same bytes on each of its records and most of a record's, is read once and then only
 * recognised ({@link Metadata}).
 *
 * <p>Anything else returns null and {@link RecordParser} reads the record the general way: arrays, CloudEvents,
 * journal and kernel records, Vector's flat dotted keys, a value that is not a string where text is expected, a
 * record the general way would refuse, broken JSON. The answers are the same either way ({@code RecordParserTest}
 * compares them on every shipper form and on odd records). One instance per thread, like the parser.
 */
final class ContainerRecords {

    /** Which of the time fields, in the order the general way looks at them. */
    private static final String[] TIME_FIELDS = {"@timestamp", "timestamp", "time", "date"};

    private final JsonFactory factory;
    private final String jobLabel;
    /** Whose container streams these are (system or user, as the general way decides). */
    private final RecordParser parser;

    // The record being read (fields of the last occurrence of a key, as in a JSON tree).
    private byte[] buf;
    private int end;
    private boolean kubernetes;
    private String pod;
    private String namespaceName;
    private String podNamespace;
    private String container;
    private String host;
    private String podNodeName;
    private String podUid;
    private String containerId;
    /** The pod's identity, of a known {@code kubernetes} object (one instance per object), or null: made per line. */
    private PodIdentity identity;
    private boolean labelsKey;
    private String labelsJob;
    private String podLabelsJob;
    private String labelJob;
    private String stream;
    /** Per time field: absent or null, else a number or a string. */
    private final double[] timeNumber = new double[TIME_FIELDS.length];
    /** A time string: decoded, or (null) still the record's bytes {@code [timeFrom, timeTo)} (most are never needed). */
    private final String[] timeText = new String[TIME_FIELDS.length];
    private final int[] timeFrom = new int[TIME_FIELDS.length];
    private final int[] timeTo = new int[TIME_FIELDS.length];
    private final boolean[] timeIsNumber = new boolean[TIME_FIELDS.length];
    private final boolean[] timeSet = new boolean[TIME_FIELDS.length];
    /** The {@code log} (0) and {@code message} (1) fields: a string, or the bytes {@code [from, to)} of the record. */
    private final String[] lineText = new String[2];
    private final int[] lineFrom = new int[2];
    private final int[] lineTo = new int[2];
    private final boolean[] lineSet = new boolean[2];

    ContainerRecords(JsonFactory factory, String jobLabel, RecordParser parser) {
        this.factory = factory;
        this.jobLabel = jobLabel;
        this.parser = parser;
    }

    /** The record's line, or null when the record is not of the common form (read it the general way). */
    ShipperLine read(byte[] value, int off, int len, long kafkaTime) {
        reset(value);
        end = off + len;
        try (JsonParser p = factory.createParser(value, off, len)) {
            if (p.nextToken() != JsonToken.START_OBJECT || !entry(p, off)) {
                return null;
            }
        } catch (IOException e) {
            return null; // the general way gives the reason
        }
        return line(kafkaTime);
    }

    private void reset(byte[] value) {
        buf = value;
        kubernetes = false;
        pod = namespaceName = podNamespace = container = host = podNodeName = labelsJob = podLabelsJob = stream = null;
        podUid = containerId = null;
        identity = null;
        labelsKey = false;
        Arrays.fill(timeSet, false);
        Arrays.fill(lineSet, false);
    }

    /** The entry's fields; false when it is not of the common form. */
    private boolean entry(JsonParser p, int off) throws IOException {
        String name;
        while ((name = p.nextFieldName()) != null) {
            JsonToken t = p.nextToken();
            switch (name) {
                case "kubernetes" -> {
                    if (t != JsonToken.START_OBJECT) {
                        return false;
                    }
                    int start = at(p, off, '{');
                    Metadata known = start < 0 ? null : known(start);
                    if (known == null) {
                        if (!kubernetes(p)) {
                            return false;
                        }
                        remember(start, off + (int) p.currentLocation().getByteOffset());
                    } else {
                        known.use(this);
                        if (closes(start + known.bytes.length)) {
                            return true; // the record's last field (as Fluent Bit writes it): nothing more to read
                        }
                        p.skipChildren();
                    }
                }
                case "log" -> {
                    if (!lineField(p, t, off, 0)) {
                        return false;
                    }
                }
                case "message" -> {
                    if (!lineField(p, t, off, 1)) {
                        return false;
                    }
                }
                case "stream" -> {
                    if (t != JsonToken.VALUE_NULL && t != JsonToken.VALUE_STRING) {
                        return false;
                    }
                    stream = t == JsonToken.VALUE_NULL ? null : p.getText();
                }
                case "@timestamp", "timestamp", "time", "date" -> {
                    if (!timeField(p, t, off, timeIndex(name))) {
                        return false;
                    }
                }
                // A CloudEvent, or Vector's flat keys: the general way.
                case "specversion", "data" -> {
                    return false;
                }
                default -> {
                    if (name.startsWith("kubernetes.")) {
                        return false;
                    }
                    p.skipChildren();
                }
            }
        }
        return kubernetes;
    }

    /**
     * A container's {@code kubernetes} object is the same bytes on each of its records: read once, it is then
     * recognised by its bytes, and what it says taken as read (a few dozen per decode thread, the most recent first).
     */
    private record Metadata(byte[] bytes, String pod, String namespaceName, String podNamespace, String container,
            String host, String podNodeName, boolean labelsKey, String labelsJob, String podLabelsJob, PodIdentity identity) {

        void use(ContainerRecords r) {
            r.kubernetes = true;
            r.pod = pod;
            r.namespaceName = namespaceName;
            r.podNamespace = podNamespace;
            r.container = container;
            r.host = host;
            r.podNodeName = podNodeName;
            r.labelsKey = labelsKey;
            r.labelsJob = labelsJob;
            r.podLabelsJob = podLabelsJob;
            r.identity = identity;
        }
    }

    private static final int KNOWN = 64;
    private final Metadata[] known = new Metadata[KNOWN];
    private int knownCount;

    /** The known object whose bytes are those at {@code buf[start]}, moved to the front; or null. */
    private Metadata known(int start) {
        for (int k = 0; k < knownCount; k++) {
            Metadata m = known[k];
            int n = m.bytes.length;
            if (start + n <= end && Arrays.equals(buf, start, start + n, m.bytes, 0, n)) {
                System.arraycopy(known, 0, known, 1, k);
                known[0] = m;
                return m;
            }
        }
        return null;
    }

    /** Remembers the object just read, {@code buf[start, stop)}, in front (the oldest one goes). */
    private void remember(int start, int stop) {
        if (stop <= start || buf[start] != '{' || buf[stop - 1] != '}') {
            return;
        }
        knownCount = Math.min(knownCount + 1, KNOWN);
        System.arraycopy(known, 0, known, 1, knownCount - 1);
        identity = identity();
        known[0] = new Metadata(Arrays.copyOfRange(buf, start, stop), pod, namespaceName, podNamespace, container, host,
                podNodeName, labelsKey, labelsJob, podLabelsJob, identity);
    }

    /** Whether the entry's object closes at {@code buf[i]} (after blanks). */
    private boolean closes(int i) {
        while (i < end && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n' || buf[i] == '\r')) {
            i++;
        }
        return i < end && buf[i] == '}';
    }

    private boolean kubernetes(JsonParser p) throws IOException {
        kubernetes = true;
        pod = namespaceName = podNamespace = container = host = podNodeName = labelsJob = podLabelsJob = null;
        podUid = containerId = null;
        labelsKey = false;
        String name;
        while ((name = p.nextFieldName()) != null) {
            JsonToken t = p.nextToken();
            switch (name) {
                case "labels", "pod_labels" -> {
                    String job = null;
                    if (t == JsonToken.START_OBJECT) {
                        if (!labels(p)) {
                            return false;
                        }
                        job = labelJob;
                    } else {
                        p.skipChildren();
                    }
                    if (name.equals("labels")) {
                        labelsKey = true;
                        labelsJob = job;
                    } else {
                        podLabelsJob = job;
                    }
                }
                case "pod_name", "namespace_name", "pod_namespace", "container_name", "host", "pod_node_name", "pod_id",
                        "pod_uid", "docker_id", "container_id" -> {
                    if (t != JsonToken.VALUE_NULL && t != JsonToken.VALUE_STRING) {
                        return false;
                    }
                    String v = t == JsonToken.VALUE_NULL ? null : p.getText();
                    switch (name) {
                        case "pod_name" -> pod = v;
                        case "namespace_name" -> namespaceName = v;
                        case "pod_namespace" -> podNamespace = v;
                        case "container_name" -> container = v;
                        case "host" -> host = v;
                        case "pod_id", "pod_uid" -> podUid = v;
                        case "docker_id", "container_id" -> containerId = v;
                        default -> podNodeName = v;
                    }
                }
                default -> p.skipChildren();
            }
        }
        return true;
    }

    /** A labels object: the job label's value into {@link #labelJob} (null when absent or null); false when it is no text. */
    private boolean labels(JsonParser p) throws IOException {
        labelJob = null;
        String name;
        while ((name = p.nextFieldName()) != null) {
            JsonToken t = p.nextToken();
            if (name.equals(jobLabel)) {
                if (t != JsonToken.VALUE_NULL && t != JsonToken.VALUE_STRING) {
                    return false;
                }
                labelJob = t == JsonToken.VALUE_NULL ? null : p.getText();
            } else {
                p.skipChildren();
            }
        }
        return true;
    }

    private static int timeIndex(String name) {
        for (int i = 0; i < TIME_FIELDS.length; i++) {
            if (TIME_FIELDS[i].equals(name)) {
                return i;
            }
        }
        throw new IllegalArgumentException(name);
    }

    private boolean timeField(JsonParser p, JsonToken t, int off, int i) throws IOException {
        switch (t) {
            case VALUE_NULL -> timeSet[i] = false;
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> {
                timeSet[i] = true;
                timeIsNumber[i] = true;
                timeNumber[i] = p.getDoubleValue();
            }
            case VALUE_STRING -> {
                timeSet[i] = true;
                timeIsNumber[i] = false;
                int from = at(p, off, '"') + 1;
                int to = from == 0 ? -1 : Utf8.plainJsonString(buf, from, end, false);
                timeText[i] = to < 0 ? p.getText() : null;
                timeFrom[i] = from;
                timeTo[i] = to;
            }
            default -> {
                return false;
            }
        }
        return true;
    }

    /**
     * A {@code log} or {@code message} value: kept as the record's bytes when they are the text (no escapes but a
     * trailing newline, valid UTF-8), else as the decoded string.
     */
    private boolean lineField(JsonParser p, JsonToken t, int off, int i) throws IOException {
        if (t == JsonToken.VALUE_NULL) {
            lineSet[i] = false;
            return true;
        }
        if (t != JsonToken.VALUE_STRING) {
            return false;
        }
        lineSet[i] = true;
        int from = at(p, off, '"') + 1;
        int to = from == 0 ? -1 : Utf8.plainJsonString(buf, from, end, true);
        if (to >= 0) {
            lineText[i] = null;
            lineFrom[i] = from;
            lineTo[i] = to;
        } else {
            lineText[i] = RecordParser.chomp(p.getText());
        }
        return true;
    }

    /**
     * Where the current token starts in {@link #buf} (its {@code first} byte), or -1 when that is not known: a record
     * Jackson reads as UTF-16 or UTF-32 has no byte positions (never a shipper's, but the fast path must not guess).
     */
    private int at(JsonParser p, int off, char first) {
        long at = p.currentTokenLocation().getByteOffset();
        int i = off + (int) at;
        return at >= 0 && i < end && buf[i] == first ? i : -1;
    }

    private ShipperLine line(long kafkaTime) {
        int l = lineSet[0] ? 0 : lineSet[1] ? 1 : -1;
        if (pod == null || l < 0) {
            return null;
        }
        long time = kafkaTime;
        for (int i = 0; i < TIME_FIELDS.length; i++) {
            if (timeSet[i]) {
                time = timeIsNumber[i] ? Times.seconds(timeNumber[i], null) : Times.parse(timeText[i] != null ? timeText[i]
                        : new String(buf, timeFrom[i], timeTo[i] - timeFrom[i], StandardCharsets.UTF_8));
                if (time == Long.MIN_VALUE) {
                    return null;
                }
                break;
            }
        }
        String ns = namespaceName != null ? namespaceName : podNamespace;
        String node = host != null ? host : podNodeName;
        boolean stderr = "stderr".equals(stream);
        StreamKey key = parser.containerStream(labelsKey ? labelsJob : podLabelsJob, node, ns, pod, container);
        if (key == null) {
            return null; // the general way says why
        }
        PodIdentity id = identity != null ? identity : identity();
        return lineText[l] != null ? new ShipperLine(key, time, stderr, lineText[l], id)
                : new ShipperLine(key, time, stderr, buf, lineFrom[l], lineTo[l], id);
    }

    private PodIdentity identity() {
        return PodIdentity.of(namespaceName != null ? namespaceName : podNamespace, pod, podUid, containerId,
                host != null ? host : podNodeName);
    }
}
