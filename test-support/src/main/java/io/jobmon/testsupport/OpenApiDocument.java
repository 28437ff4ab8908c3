package io.jobmon.testsupport;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/** A service's OpenAPI document as JSON: its {@code /api} operations, path templates, schemas, and its validity. */
public final class OpenApiDocument {

    public static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> METHODS = Set.of("get", "put", "post", "delete", "patch", "head", "options");

    /** One operation: method (upper case), path template, its JSON. */
    public record Operation(String method, String template, JsonNode node) {

        public String name() {
            return method + " " + template;
        }

        /** The status codes it declares ({@code 200}, {@code 404}, ... and {@code default}). */
        public Set<String> declared() {
            Set<String> out = new LinkedHashSet<>();
            node.path("responses").fieldNames().forEachRemaining(out::add);
            return out;
        }

        List<JsonNode> parameters(String in) {
            List<JsonNode> out = new ArrayList<>();
            node.path("parameters").forEach(p -> {
                if (in.equals(p.path("in").asText())) {
                    out.add(p);
                }
            });
            return out;
        }
    }

    private final JsonNode doc;

    public OpenApiDocument(JsonNode doc) {
        this.doc = doc;
    }

    /** The document the service under test serves on its management port. */
    public static OpenApiDocument live() {
        String body = io.restassured.RestAssured.given().get(Management.url("/q/openapi?format=json")).then()
                .statusCode(200).extract().asString();
        return new OpenApiDocument(parse(body));
    }

    public static OpenApiDocument read(Path file) {
        try {
            return new OpenApiDocument(JSON.readTree(Files.readString(file)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static JsonNode parse(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public JsonNode json() {
        return doc;
    }

    /** Every operation under {@code /api/}. */
    public List<Operation> operations() {
        List<Operation> out = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = doc.path("paths").fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> path = it.next();
            if (!path.getKey().startsWith("/api/")) {
                continue;
            }
            path.getValue().fields().forEachRemaining(m -> {
                if (METHODS.contains(m.getKey())) {
                    out.add(new Operation(m.getKey().toUpperCase(Locale.ROOT), path.getKey(), m.getValue()));
                }
            });
        }
        return out;
    }

    /** The operation a concrete call is for: the template with the most literal characters wins. */
    public Optional<Operation> match(String method, String rawPath) {
        return operations().stream().filter(o -> o.method().equalsIgnoreCase(method))
                .filter(o -> regex(o.template()).matcher(rawPath).matches())
                .max(Comparator.comparingInt(o -> o.template().replaceAll("\\{[^}]+}", "").length()));
    }

    static Pattern regex(String template) {
        StringBuilder r = new StringBuilder("^");
        for (String part : template.split("(?=\\{)|(?<=})")) {
            r.append(part.startsWith("{") ? "[^/]+" : Pattern.quote(part));
        }
        return Pattern.compile(r.append("$").toString());
    }

    /** A schema with its {@code $ref} followed (within this document). */
    public JsonNode resolve(JsonNode schema) {
        JsonNode s = schema;
        for (int i = 0; i < 10 && s != null && s.has("$ref"); i++) {
            String ref = s.get("$ref").asText();
            s = ref.startsWith("#/") ? doc.at(ref.substring(1)) : null;
        }
        return s == null || s.isMissingNode() ? JSON.createObjectNode() : s;
    }

    /** Where the document breaks the OpenAPI 3.1 schema (empty when it is valid). */
    public static List<String> violations(JsonNode document) {
        try (InputStream in = OpenApiDocument.class.getResourceAsStream("openapi-3.1-schema.json")) {
            JsonSchema schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(in);
            Set<ValidationMessage> errors = schema.validate(document);
            return errors.stream().map(ValidationMessage::getMessage).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
