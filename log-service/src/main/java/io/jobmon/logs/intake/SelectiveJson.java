package io.jobmon.logs.intake;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.Set;

/**
 * Reads a shipper record into a JSON tree that holds only the fields {@link RecordParser} looks at, with Jackson's
 * streaming parser: every other field (a Fluent Bit record's annotations, image hash …, most of
 * its bytes) is skipped without building nodes or strings for it. The fields kept are exactly what a full tree holds
 * for them (same node types, whole subtrees for objects and arrays, the last of duplicate keys), so the parser's
 * answers are the same as on the full tree ({@code RecordParserTest} compares both on every shipper form).
 */
final class SelectiveJson {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** Top-level fields of an entry the parser reads (Fluent Bit, Vector, journald, kmsg, CloudEvent). */
    private static final Set<String> TOP = Set.of("specversion", "data", "type", "kubernetes", "kubernetes.pod_name",
            "kubernetes.pod_namespace", "kubernetes.namespace_name", "kubernetes.container_name",
            "kubernetes.pod_node_name", "kubernetes.host", "kubernetes.pod_labels", "kubernetes.pod_uid", "kubernetes.pod_id",
            "kubernetes.container_id", "kubernetes.docker_id", "_SYSTEMD_UNIT", "_systemd_unit",
            "SYSTEMD_UNIT", "systemd_unit", "SYSLOG_IDENTIFIER", "syslog_identifier", "MESSAGE", "message", "msg", "sec",
            "usec", "priority", "log", "stream", "@timestamp", "timestamp", "time", "date", "_HOSTNAME", "_hostname",
            "hostname", "host", "node", "__REALTIME_TIMESTAMP", "_SOURCE_REALTIME_TIMESTAMP");
    /** Fields of the {@code kubernetes} object it reads. */
    private static final Set<String> KUBERNETES = Set.of("pod_name", "namespace_name", "pod_namespace", "container_name",
            "host", "pod_node_name", "labels", "pod_labels", "pod_id", "pod_uid", "docker_id", "container_id");

    private final ObjectMapper mapper;
    private final JsonFactory factory;
    private final String jobLabel;

    SelectiveJson(ObjectMapper mapper, String jobLabel) {
        this.mapper = mapper;
        this.factory = mapper.getFactory();
        this.jobLabel = jobLabel;
    }

    /** The record's first JSON value, objects reduced to the fields read. */
    JsonNode read(byte[] value, int off, int len) throws IOException {
        try (JsonParser p = factory.createParser(value, off, len)) {
            return read(p);
        }
    }

    /** The same from a string (a record that is not valid UTF-8, decoded with replacement characters). */
    JsonNode read(String value) throws IOException {
        try (JsonParser p = factory.createParser(value)) {
            return read(p);
        }
    }

    private JsonNode read(JsonParser p) throws IOException {
        JsonToken t = p.nextToken();
        if (t == JsonToken.START_ARRAY) {
            ArrayNode array = NODES.arrayNode();
            while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
                array.add(t == JsonToken.START_OBJECT ? object(p, TOP, 0) : mapper.readTree(p));
            }
            return array;
        }
        if (t == JsonToken.START_OBJECT) {
            return object(p, TOP, 0);
        }
        return t == null ? mapper.missingNode() : mapper.readTree(p);
    }

    /**
     * The object at the parser (on its START_OBJECT) with only the fields named in {@code keep}; {@code kubernetes}
     * and the label objects are reduced in turn. depth 0: an entry, 1: its kubernetes object.
     */
    private ObjectNode object(JsonParser p, Set<String> keep, int depth) throws IOException {
        ObjectNode out = NODES.objectNode();
        String name;
        while ((name = p.nextFieldName()) != null) {
            JsonToken t = p.nextToken();
            if (!keep.contains(name)) {
                p.skipChildren();
                continue;
            }
            if (t == JsonToken.START_OBJECT && depth == 0 && name.equals("kubernetes")) {
                out.set(name, object(p, KUBERNETES, 1));
            } else if (t == JsonToken.START_OBJECT && labels(name, depth)) {
                out.set(name, object(p, Set.of(jobLabel), 2));
            } else {
                out.set(name, scalarOrTree(p, t));
            }
        }
        return out;
    }

    /** The pod labels: Fluent Bit's and Vector's in the kubernetes object, Vector's flat dotted key at the top. */
    private static boolean labels(String name, int depth) {
        return depth == 1 ? name.equals("labels") || name.equals("pod_labels") : depth == 0 && name.equals("kubernetes.pod_labels");
    }

    private JsonNode scalarOrTree(JsonParser p, JsonToken t) throws IOException {
        return switch (t) {
            case VALUE_STRING -> NODES.textNode(p.getText());
            case VALUE_NULL -> NODES.nullNode();
            case VALUE_TRUE, VALUE_FALSE -> NODES.booleanNode(t == JsonToken.VALUE_TRUE);
            // numbers typed as the full tree types them (Jackson's defaults: int, long, big integer, double)
            case VALUE_NUMBER_INT -> switch (p.getNumberType()) {
                case INT -> NODES.numberNode(p.getIntValue());
                case LONG -> NODES.numberNode(p.getLongValue());
                default -> NODES.numberNode(p.getBigIntegerValue());
            };
            case VALUE_NUMBER_FLOAT -> NODES.numberNode(p.getDoubleValue());
            default -> mapper.readTree(p); // objects and arrays whole
        };
    }
}
