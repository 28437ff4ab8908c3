package io.jobmon.diagnosis.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/** The public sample bundles of the module's test resources, with their {@code expect} stripped. */
public final class Samples {

    public static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Set<String> TIMES = Set.of("submittedAt", "startedAt", "finishedAt", "time", "from", "to");

    private Samples() {
    }

    /** The bundle of {@code samples/<file>}, without {@code expect}. */
    public static ObjectNode bundle(String file) {
        ObjectNode all = raw(file);
        all.remove("expect");
        return all;
    }

    /** What the sample expects ({@code category}, {@code action}). */
    public static JsonNode expect(String file) {
        return raw(file).path("expect");
    }

    /** The bundle moved in time so that its window ends at {@code end}, for the job {@code jobId}. */
    public static ObjectNode recent(String file, String jobId, Instant end) {
        ObjectNode b = bundle(file);
        Instant to = Instant.parse(b.path("window").path("to").asText());
        shift(b, Duration.between(to, end));
        if (b.path("job").isObject()) {
            ((ObjectNode) b.get("job")).put("id", jobId);
        }
        return b;
    }

    private static void shift(JsonNode node, Duration by) {
        if (node instanceof ObjectNode o) {
            Iterator<Map.Entry<String, JsonNode>> it = o.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                if (TIMES.contains(e.getKey()) && e.getValue().isTextual()) {
                    e.setValue(TextNode.valueOf(Instant.parse(e.getValue().asText()).plus(by).toString()));
                } else if ("samples".equals(e.getKey()) && e.getValue().isArray()) {
                    for (JsonNode s : e.getValue()) {
                        ((ArrayNode) s).set(0, TextNode.valueOf(Instant.parse(s.get(0).asText()).plus(by).toString()));
                    }
                } else {
                    shift(e.getValue(), by);
                }
            }
        } else if (node instanceof ArrayNode a) {
            a.forEach(n -> shift(n, by));
        }
    }

    private static ObjectNode raw(String file) {
        try (InputStream in = Samples.class.getResourceAsStream("/samples/" + file)) {
            if (in == null) {
                throw new IllegalArgumentException("no sample " + file);
            }
            return (ObjectNode) MAPPER.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
