package io.jobmon.logs.intake;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jobmon.contracts.events.InvalidRecordException;
import io.jobmon.logs.chunk.StreamKey;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads a record value of {@code jobmon.logs.lines} in the forms shippers write, untouched:
 * <ul>
 * <li>Fluent Bit's Kafka output ({@code format json}): the record with {@code @timestamp} (or the configured
 * {@code timestamp_key}; double or ISO 8601), {@code log} (docker/cri parsers) or {@code message} (classic cri
 * parser), {@code stream}, {@code time}, and the kubernetes filter's {@code kubernetes.{pod_name, namespace_name,
 * container_name, host, labels}}; its systemd input ({@code MESSAGE}, {@code _HOSTNAME}, {@code _SYSTEMD_UNIT},
 * {@code SYSLOG_IDENTIFIER}) and kmsg input ({@code msg}, {@code sec}, {@code usec}, the node in {@code hostname}
 * or {@code host} added by a record_modifier filter);</li>
 * <li>Vector's kafka sink with the json codec: {@code message}, {@code timestamp}, {@code stream} and
 * {@code kubernetes.{pod_name, pod_namespace, container_name, pod_node_name, pod_labels}} of the kubernetes_logs
 * source (nested, or as flat dotted keys), and the journald source ({@code message}, {@code host},
 * {@code _SYSTEMD_UNIT}, {@code SYSLOG_IDENTIFIER});</li>
 * <li>a JSON array of any of those in one message;</li>
 * <li>jobmon's own CloudEvent {@code io.jobmon.logs.lines.v1} (see the README).</li>
 * </ul>
 * Container lines of a pod carrying the job label belong to that job; of other pods, to the job whose snapshot
 * names the pod (resolved later); of device-plugin style containers, to their node's system log.
 *
 * <p>Only the fields read are taken from a record ({@link SelectiveJson}). One instance per thread (the intake's
 * decode threads each have theirs).
 */
public final class RecordParser {

    public static final String CLOUDEVENT_TYPE = "io.jobmon.logs.lines.v1";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** What one record held: its lines, and how many entries were not job or system lines (other journal units). */
    public record Parsed(List<ShipperLine> lines, int ignored) {
    }

    private final String jobLabel;
    private final Set<String> systemUnits;
    private final Pattern systemContainers;
    private final SelectiveJson selective;
    private final ContainerRecords containers;
    /** Whether a container name is a system one: the same few names on every record (not thread-safe, as the class). */
    private final Map<String, Boolean> systemContainer = new HashMap<>();

    public RecordParser(String jobLabel, Set<String> systemUnits, Pattern systemContainers) {
        this.jobLabel = jobLabel;
        this.systemUnits = systemUnits;
        this.systemContainers = systemContainers;
        this.selective = new SelectiveJson(MAPPER, jobLabel);
        this.containers = new ContainerRecords(MAPPER.getFactory(), jobLabel, this);
    }

    /**
     * @param kafkaTimeNanos the record's Kafka timestamp: the time of an entry that carries none
     * @throws InvalidRecordException with a reason a person can act on
     */
    public Parsed parse(byte[] value, long kafkaTimeNanos) {
        return parse(value, 0, value == null ? 0 : value.length, kafkaTimeNanos);
    }

    /**
     * The record in {@code value[off, off + len)} (a Kafka record's bytes where they lie). The common form, one
     * container line, is read by {@link ContainerRecords} without a tree; every other form the general way.
     */
    public Parsed parse(byte[] value, int off, int len, long kafkaTimeNanos) {
        if (value == null || blank(value, off, len)) {
            throw new InvalidRecordException("empty record value");
        }
        ShipperLine line = containers.read(value, off, len, kafkaTimeNanos);
        if (line != null) {
            return new Parsed(List.of(line), 0);
        }
        return parse(readSelective(value, off, len), kafkaTimeNanos);
    }

    /** {@link #parse(byte[], long)} of the string's UTF-8 bytes. */
    public Parsed parse(String value, long kafkaTimeNanos) {
        if (value == null) {
            throw new InvalidRecordException("empty record value");
        }
        return parse(value.getBytes(StandardCharsets.UTF_8), kafkaTimeNanos);
    }

    private static boolean blank(byte[] value, int off, int len) {
        for (int i = off; i < off + len; i++) {
            byte b = value[i];
            if (b < 0 || !Character.isWhitespace(b)) {
                return false;
            }
        }
        return true;
    }

    /** The same answer from the full tree of the record (what {@link SelectiveJson} must be equal to; tests). */
    Parsed parseFullTree(String value, long kafkaTimeNanos) {
        if (value == null || value.isBlank()) {
            throw new InvalidRecordException("empty record value");
        }
        try {
            return parse(MAPPER.readTree(value), kafkaTimeNanos);
        } catch (JsonProcessingException e) {
            throw new InvalidRecordException("not JSON: " + e.getOriginalMessage());
        }
    }

    /**
     * Parses the bytes as they came from Kafka (no string of the whole record is made, and skipped fields are not even
     * decoded). A record that is not valid UTF-8 is read again as Kafka's string deserializer would decode it (invalid
     * bytes become U+FFFD), so such a line is stored, not dead-lettered; the reason of a record that still fails is the
     * string reading's.
     */
    private JsonNode readSelective(byte[] value, int off, int len) {
        try {
            return selective.read(value, off, len);
        } catch (IOException e) {
            try {
                return selective.read(new String(value, off, len, StandardCharsets.UTF_8));
            } catch (JsonProcessingException again) {
                throw new InvalidRecordException("not JSON: " + again.getOriginalMessage());
            } catch (IOException again) {
                throw new UncheckedIOException(again); // reading a String: not reached
            }
        }
    }

    private Parsed parse(JsonNode root, long kafkaTimeNanos) {
        List<ShipperLine> out = new ArrayList<>(root.isArray() ? root.size() : 1);
        int ignored = 0;
        if (root.isArray()) {
            for (int i = 0; i < root.size(); i++) {
                try {
                    ignored += entry(root.get(i), kafkaTimeNanos, out);
                } catch (InvalidRecordException e) {
                    throw new InvalidRecordException("entry [" + i + "]: " + e.getMessage());
                }
            }
        } else {
            ignored += entry(root, kafkaTimeNanos, out);
        }
        return new Parsed(out, ignored);
    }

    /** @return 1 when the entry is valid but no job or system line (another journal unit), else 0 */
    private int entry(JsonNode e, long kafkaTime, List<ShipperLine> out) {
        if (e == null || !e.isObject()) {
            throw new InvalidRecordException("a JSON object (or an array of objects) is expected");
        }
        if (e.has("specversion") && e.has("data")) {
            cloudEvent(e, out);
            return 0;
        }
        JsonNode k8s = e.get("kubernetes");
        if (k8s != null && k8s.isObject() || e.has("kubernetes.pod_name")) {
            container(e, k8s, kafkaTime, out);
            return 0;
        }
        String unit = firstText(e, "_SYSTEMD_UNIT", "_systemd_unit", "SYSTEMD_UNIT", "systemd_unit");
        String ident = firstText(e, "SYSLOG_IDENTIFIER", "syslog_identifier");
        String journalMessage = firstText(e, "MESSAGE", "message");
        if (unit != null || ident != null) {
            return journal(e, unit, ident, journalMessage, kafkaTime, out);
        }
        if (e.has("msg") && (e.has("sec") || e.has("priority"))) {
            kmsg(e, kafkaTime, out);
            return 0;
        }
        if (e.has("log") || e.has("message")) {
            throw new InvalidRecordException("a log line without its pod: no 'kubernetes' metadata (enable Fluent Bit's"
                    + " kubernetes filter or use Vector's kubernetes_logs source)");
        }
        throw new InvalidRecordException("not a Fluent Bit, Vector or jobmon log record: no 'log', 'message' or 'msg' field");
    }

    private void container(JsonNode e, JsonNode k8s, long kafkaTime, List<ShipperLine> out) {
        String pod = k8s != null ? firstText(k8s, "pod_name") : text(e, "kubernetes.pod_name");
        String ns = k8s != null ? firstText(k8s, "namespace_name", "pod_namespace") : firstText(e, "kubernetes.pod_namespace", "kubernetes.namespace_name");
        String container = k8s != null ? firstText(k8s, "container_name") : text(e, "kubernetes.container_name");
        String node = k8s != null ? firstText(k8s, "host", "pod_node_name") : firstText(e, "kubernetes.pod_node_name", "kubernetes.host");
        JsonNode labels = k8s != null ? (k8s.has("labels") ? k8s.get("labels") : k8s.get("pod_labels")) : e.get("kubernetes.pod_labels");
        if (pod == null) {
            throw new InvalidRecordException("kubernetes metadata without pod_name");
        }
        String line = lineText(e);
        long time = time(e, kafkaTime);
        boolean stderr = "stderr".equals(text(e, "stream"));
        String job = labels != null && labels.isObject() ? text(labels, jobLabel) : null;
        StreamKey key = containerStream(job, node, ns, pod, container);
        if (key == null) {
            throw new InvalidRecordException("system container '" + container + "' without its node (kubernetes.host)");
        }
        String uid = k8s != null ? firstText(k8s, "pod_id", "pod_uid") : firstText(e, "kubernetes.pod_uid", "kubernetes.pod_id");
        String cid = k8s != null ? firstText(k8s, "docker_id", "container_id")
                : firstText(e, "kubernetes.container_id", "kubernetes.docker_id");
        out.add(new ShipperLine(key, time, stderr, line, PodIdentity.of(ns, pod, uid, cid, node)));
    }

    /**
     * The stream of a container's line: its node's system log for device-plugin style containers, else the user log
     * of its pod (of {@code job}, when the pod's labels name it); null for a system container without its node.
     */
    StreamKey containerStream(String job, String node, String ns, String pod, String container) {
        if (container != null && isSystemContainer(container)) {
            return node == null ? null : StreamKey.system(node, container);
        }
        return StreamKey.user(job, node, ns, pod, container);
    }

    private boolean isSystemContainer(String container) {
        Boolean system = systemContainer.get(container);
        if (system == null) {
            if (systemContainer.size() >= 10_000) {
                systemContainer.clear();
            }
            system = systemContainers.matcher(container).matches();
            systemContainer.put(container, system);
        }
        return system;
    }

    private int journal(JsonNode e, String unit, String ident, String message, long kafkaTime, List<ShipperLine> out) {
        String unitName = unit == null ? null : strip(unit);
        String source = unitName != null && systemUnits.contains(unitName) ? unitName
                : ident != null && systemUnits.contains(ident) ? ident : null;
        if (source == null) {
            return 1;
        }
        String node = firstText(e, "_HOSTNAME", "_hostname", "hostname", "host", "node");
        if (node == null) {
            throw new InvalidRecordException("journal record of " + source + " without its node (_HOSTNAME or host)");
        }
        if (message == null) {
            throw new InvalidRecordException("journal record without MESSAGE");
        }
        long time = Long.MIN_VALUE;
        String realtime = firstText(e, "__REALTIME_TIMESTAMP", "_SOURCE_REALTIME_TIMESTAMP");
        if (!e.has("@timestamp") && !e.has("timestamp") && realtime != null) {
            try {
                time = Long.parseLong(realtime) * 1000L;
            } catch (NumberFormatException ignored) {
                // falls back below
            }
        }
        if (time == Long.MIN_VALUE) {
            time = time(e, kafkaTime);
        }
        out.add(new ShipperLine(StreamKey.system(node, source), time, false, message));
        return 0;
    }

    private void kmsg(JsonNode e, long kafkaTime, List<ShipperLine> out) {
        String node = firstText(e, "hostname", "host", "node", "_HOSTNAME");
        if (node == null) {
            throw new InvalidRecordException("kernel (kmsg) record without its node: add 'hostname' with a record_modifier filter");
        }
        long time;
        if (e.has("sec")) {
            time = e.path("sec").asLong() * 1_000_000_000L + e.path("usec").asLong() * 1000L;
        } else {
            time = time(e, kafkaTime);
        }
        out.add(new ShipperLine(StreamKey.system(node, "kernel"), time, false, text(e, "msg")));
    }

    private static void cloudEvent(JsonNode e, List<ShipperLine> out) {
        if (!CLOUDEVENT_TYPE.equals(text(e, "type"))) {
            throw new InvalidRecordException("CloudEvent of type '" + text(e, "type") + "', expected " + CLOUDEVENT_TYPE);
        }
        JsonNode d = e.get("data");
        JsonNode lines = d.get("lines");
        if (lines == null || !lines.isArray()) {
            throw new InvalidRecordException("invalid log lines: missing 'lines'");
        }
        boolean system = "system".equals(text(d, "type"));
        String source = text(d, "source");
        StreamKey key;
        if (system) {
            String node = text(d, "node");
            if (node == null || source == null) {
                throw new InvalidRecordException("invalid log lines: a system line needs 'node' and 'source'");
            }
            key = StreamKey.system(node, source);
        } else {
            if (text(d, "pod") == null) {
                throw new InvalidRecordException("invalid log lines: missing 'pod'");
            }
            key = StreamKey.user(text(d, "jobId"), text(d, "node"), text(d, "namespace"), text(d, "pod"), text(d, "container"));
        }
        for (int i = 0; i < lines.size(); i++) {
            JsonNode l = lines.get(i);
            long t = Times.parse(text(l, "time"));
            if (t == Long.MIN_VALUE) {
                throw new InvalidRecordException("invalid log lines: lines[" + i + "].time is not an RFC 3339 time");
            }
            String line = text(l, "line");
            out.add(new ShipperLine(key, t, "stderr".equals(source), line == null ? "" : line));
        }
    }

    /** The line's text: {@code log} (a trailing newline of the docker form dropped), else {@code message}. */
    static String lineText(JsonNode e) {
        JsonNode v = e.get("log");
        if (v == null || v.isNull()) {
            v = e.get("message");
        }
        if (v == null || v.isNull()) {
            throw new InvalidRecordException("no 'log' or 'message' field");
        }
        return chomp(v.isTextual() ? v.asText() : v.toString());
    }

    /** The text without a trailing {@code \n} or {@code \r\n} (the docker form ends every line with one). */
    static String chomp(String s) {
        int end = s.length();
        if (end > 0 && s.charAt(end - 1) == '\n') {
            end--;
            if (end > 0 && s.charAt(end - 1) == '\r') {
                end--;
            }
        }
        return end == s.length() ? s : s.substring(0, end);
    }

    /** The entry's time: {@code @timestamp}, {@code timestamp}, {@code time}, {@code date}, else the Kafka time. */
    static long time(JsonNode e, long kafkaTime) {
        for (String f : new String[] {"@timestamp", "timestamp", "time", "date"}) {
            JsonNode v = e.get(f);
            if (v == null || v.isNull()) {
                continue;
            }
            // A number is epoch seconds (Fluent Bit's double carries microseconds); a string an RFC 3339 time.
            long t = v.isNumber() ? Times.seconds(v.asDouble(), null) : Times.parse(v.asText());
            if (t != Long.MIN_VALUE) {
                return t;
            }
            throw new InvalidRecordException("'" + f + "' is not a time: " + abbreviate(v.asText()));
        }
        return kafkaTime;
    }

    private static String strip(String unit) {
        return unit.endsWith(".service") ? unit.substring(0, unit.length() - 8) : unit;
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.isTextual() ? v.asText() : v.toString();
    }

    private static String firstText(JsonNode n, String... fields) {
        for (String f : fields) {
            String v = text(n, f);
            if (v != null) {
                return v;
            }
        }
        return null;
    }

    private static String abbreviate(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "…" : s;
    }

    static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
