package io.jobmon.testsupport;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Bad input is never a 5xx: every {@code /api} operation of the service's own OpenAPI document is called with
 * hostile path ids, query parameters, headers and bodies — NUL characters, huge values, Unicode, wrong JSON types,
 * malformed JSON — and must answer below 500, every error as an {@code application/problem+json} body with a
 * jobmon problem type. A service's {@code FuzzTest} extends this as a {@code @QuarkusTest}; it may override
 * {@link #pathValue} to aim at a resource that exists (so that the body is looked at) and {@link #token}.
 */
public abstract class FuzzChecks {

    private static final JsonNodeFactory N = JsonNodeFactory.instance;
    static final String HUGE = "x".repeat(100_000);
    static final String UNICODE = "作业-训练😀\u202e\u0301";
    /** Values for a path segment or a query parameter, already percent-encoded where they need it. */
    static final List<String> RAW_VALUES = List.of("%00", "a%00b", enc("\u0000"), enc(UNICODE), "x".repeat(4000), "-1",
            "0", "1.5", "abc", "99999999999999999999", "1e309", enc("' OR '1'='1"), enc("a b"), enc("<script>"),
            "true", "null", enc("2026-13-45T99:99:99Z"));

    /** The caller of every request: a user with the platform role. */
    protected String token() {
        return Tokens.alice();
    }

    /**
     * The value of a path parameter when it is not the one being fuzzed: by default an id nothing has. A service
     * may name a resource of the caller so that bodies reach their validation (keep destructive methods away).
     */
    protected String pathValue(String method, String template, String parameter) {
        return "fuzz-" + parameter;
    }

    @Test
    void everyOperationAnswersHostileInputWithAProblemNeverA5xx() {
        OpenApiDocument doc = OpenApiDocument.live();
        List<String> failures = new ArrayList<>();
        int calls = 0;
        for (OpenApiDocument.Operation op : doc.operations()) {
            for (JsonNode p : op.parameters("path")) {
                for (String v : RAW_VALUES) {
                    calls++;
                    check(op, path(op, p.path("name").asText(), v), null, null, null, failures);
                }
            }
            for (JsonNode p : op.parameters("query")) {
                for (String v : RAW_VALUES) {
                    calls++;
                    check(op, path(op, null, null) + "?" + p.path("name").asText() + "=" + v, null, null, null,
                            failures);
                }
            }
            for (JsonNode p : op.parameters("header")) {
                for (String v : List.of("x".repeat(6000), "a\u0001b", "' OR 1=1", "abc", "-1")) {
                    calls++;
                    check(op, path(op, null, null), p.path("name").asText(), v, null, failures);
                }
            }
            JsonNode body = op.node().path("requestBody").path("content").path("application/json").path("schema");
            if (!body.isMissingNode()) {
                for (String b : bodies(doc, body)) {
                    calls++;
                    check(op, path(op, null, null), null, null, b, failures);
                }
            }
        }
        System.out.println("fuzz: " + calls + " requests, " + failures.size() + " failures");
        assertEquals(List.of(), failures);
    }

    private String path(OpenApiDocument.Operation op, String fuzzed, String value) {
        String out = op.template();
        for (JsonNode p : op.parameters("path")) {
            String name = p.path("name").asText();
            String v = name.equals(fuzzed) ? value : enc(pathValue(op.method(), op.template(), name));
            out = out.replace("{" + name + "}", v);
        }
        return out;
    }

    private void check(OpenApiDocument.Operation op, String uri, String header, String headerValue, String body,
            List<String> failures) {
        RequestSpecification req = given().urlEncodingEnabled(false).auth().oauth2(token());
        if (header != null) {
            req.header(header, headerValue);
        }
        if (body != null) {
            req.contentType("application/json").body(body.getBytes(StandardCharsets.UTF_8));
        }
        Response r;
        try {
            r = req.request(op.method(), uri);
        } catch (Exception e) { // URISyntaxException arrives unchecked through Groovy
            return; // the client itself refused to send it (an illegal URI): nothing reached the service
        }
        String what = op.name() + " " + abbreviate(uri) + (header != null ? " [" + header + "]" : "")
                + (body != null ? " body " + abbreviate(body) : "");
        int status = r.statusCode();
        if (status >= 500) {
            failures.add(what + " -> " + status + " " + abbreviate(r.asString()));
        } else if (status >= 400) {
            String type = r.contentType();
            if (type == null || !type.startsWith("application/problem+json")) {
                failures.add(what + " -> " + status + " as " + type);
            } else if (!String.valueOf(r.jsonPath().getString("type")).startsWith("https://jobmon.io/problems/")
                    || r.jsonPath().getInt("status") != status) {
                failures.add(what + " -> " + status + " with problem " + abbreviate(r.asString()));
            }
        }
    }

    /** Hostile bodies for a request body schema: broken JSON, wrong shapes, and each property made wrong. */
    List<String> bodies(OpenApiDocument doc, JsonNode schema) {
        List<String> out = new ArrayList<>(List.of("", "{", "null", "[]", "123", "\"x\"", "{\"a\":", "\u0000",
                "[".repeat(5000)));
        JsonNode valid = sample(doc, schema, 0);
        out.add(valid.toString());
        JsonNode s = doc.resolve(schema);
        if (valid instanceof ObjectNode obj) {
            ObjectNode extra = obj.deepCopy();
            extra.put("noSuchField\u0000", 1);
            out.add(extra.toString());
            Map<String, JsonNode> props = new LinkedHashMap<>();
            s.path("properties").fields().forEachRemaining(e -> props.put(e.getKey(), e.getValue()));
            props.forEach((name, prop) -> {
                for (JsonNode bad : wrong(doc, prop)) {
                    ObjectNode copy = obj.deepCopy();
                    copy.set(name, bad);
                    out.add(copy.toString());
                }
            });
        }
        return out;
    }

    /** Values of the wrong type, or of the right type but hostile, for a property. */
    private List<JsonNode> wrong(OpenApiDocument doc, JsonNode propSchema) {
        JsonNode s = doc.resolve(propSchema);
        String type = type(s);
        List<JsonNode> out = new ArrayList<>(List.of(N.textNode("a\u0000b"), N.textNode(HUGE), N.textNode(UNICODE),
                N.numberNode(-1), N.numberNode(1.5), N.booleanNode(true), N.objectNode().put("x", 1),
                N.arrayNode().add(1), N.textNode(""), N.numberNode(new java.math.BigInteger("99999999999999999999"))));
        if ("array".equals(type)) {
            out.add(N.arrayNode().add("a\u0000b"));
            out.add(N.arrayNode().add(N.objectNode()));
            ArrayNode many = N.arrayNode();
            for (int i = 0; i < 2000; i++) {
                many.add("t" + i);
            }
            out.add(many);
        }
        if ("object".equals(type)) {
            out.add(N.objectNode().put("k\u0000", "v").put("a", "b\u0000"));
            ObjectNode nested = N.objectNode();
            s.path("properties").fieldNames().forEachRemaining(f -> nested.put(f, "a\u0000b"));
            out.add(nested);
        }
        return out;
    }

    /** A value the schema describes: the first enum value, a now for a date-time, one item per array. */
    private JsonNode sample(OpenApiDocument doc, JsonNode schema, int depth) {
        JsonNode s = doc.resolve(schema);
        if (s.has("enum") && s.get("enum").size() > 0) {
            return s.get("enum").get(0);
        }
        String type = type(s);
        if (depth > 4) {
            return N.nullNode();
        }
        return switch (type) {
            case "object" -> {
                ObjectNode o = N.objectNode();
                s.path("properties").fields().forEachRemaining(e -> o.set(e.getKey(), sample(doc, e.getValue(),
                        depth + 1)));
                yield o;
            }
            case "array" -> N.arrayNode().add(sample(doc, s.path("items"), depth + 1));
            case "integer" -> N.numberNode(1);
            case "number" -> N.numberNode(1.0);
            case "boolean" -> N.booleanNode(false);
            case "string" -> "date-time".equals(s.path("format").asText())
                    ? N.textNode(java.time.Instant.now().toString()) : N.textNode("fuzz");
            default -> N.textNode("fuzz");
        };
    }

    private static String type(JsonNode s) {
        JsonNode t = s.path("type");
        if (t.isArray()) {
            for (JsonNode x : t) {
                if (!"null".equals(x.asText())) {
                    return x.asText();
                }
            }
        }
        if (t.isTextual()) {
            return t.asText();
        }
        return s.has("properties") ? "object" : "string";
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static String abbreviate(String s) {
        return s.length() > 160 ? s.substring(0, 160) + "..." : s;
    }
}
