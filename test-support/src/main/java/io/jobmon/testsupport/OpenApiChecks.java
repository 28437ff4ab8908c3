package io.jobmon.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A service's OpenAPI document tells the truth a frontend team builds on: it is valid OpenAPI 3.1, every
 * {@code /api} operation requires the bearer scheme, declares a success status and the shared layer's problems
 * with the problem schema, a 201 names its {@code Location}; and the copy in the repository
 * ({@code docs/openapi/<service>.json}, which the gateway's tests merge and compile into a TypeScript client) is
 * the one the service serves. A service's {@code OpenApiTest} extends this as a {@code @QuarkusTest}.
 *
 * <p>When the document changed on purpose, run the test with {@code -Djobmon.openapi.update=true} to write the
 * repository's copy (or copy {@code target/openapi/<service>.json} there).
 */
public abstract class OpenApiChecks {

    private final String service;

    protected OpenApiChecks(String service) {
        this.service = service;
    }

    /** The repository's copy of the service's document. */
    public static Path committed(String service) {
        return Path.of("..", "docs", "openapi", service + ".json");
    }

    @Test
    void theDocumentIsValidOpenApi31() {
        JsonNode doc = OpenApiDocument.live().json();
        assertEquals("3.1.0", doc.path("openapi").asText());
        assertEquals(List.of(), OpenApiDocument.violations(doc));
    }

    @Test
    void everyApiOperationDeclaresItsSuccessTheSharedProblemsAndTheBearerScheme() {
        OpenApiDocument doc = OpenApiDocument.live();
        List<String> wrong = new ArrayList<>();
        assertFalse(doc.operations().isEmpty(), "no /api operation in the document");
        assertEquals("bearer", doc.json().path("components").path("securitySchemes").path("bearer").path("scheme")
                .asText());
        for (OpenApiDocument.Operation op : doc.operations()) {
            Set<String> codes = op.declared();
            if (codes.stream().noneMatch(c -> c.startsWith("2"))) {
                wrong.add(op.name() + ": no success status");
            }
            for (String c : List.of("400", "401", "403", "429", "503")) {
                if (!codes.contains(c)) {
                    wrong.add(op.name() + ": " + c + " not declared");
                }
            }
            if (!op.node().path("security").toString().contains("bearer")) {
                wrong.add(op.name() + ": no bearer security");
            }
            op.node().path("responses").fields().forEachRemaining(r -> {
                boolean error = r.getKey().startsWith("4") || r.getKey().startsWith("5");
                if (error && !r.getValue().path("content").path("application/problem+json").path("schema")
                        .path("$ref").asText().endsWith("/Problem")) {
                    wrong.add(op.name() + ": " + r.getKey() + " without the Problem body");
                }
                if (r.getKey().equals("201") && r.getValue().path("headers").path("Location").isMissingNode()) {
                    wrong.add(op.name() + ": 201 without a Location header");
                }
                if (r.getKey().startsWith("2") && !r.getKey().equals("204")
                        && r.getValue().path("content").isMissingNode()) {
                    wrong.add(op.name() + ": " + r.getKey() + " without a body schema");
                }
            });
            JsonNode body = op.node().path("requestBody").path("content");
            if (op.node().has("requestBody") && (body.isEmpty() || java.util.stream.StreamSupport
                    .stream(body.spliterator(), false).anyMatch(media -> media.path("schema").isMissingNode()))) {
                wrong.add(op.name() + ": a request body without a schema"); // JSON, or e.g. remote-write's protobuf
            }
        }
        assertEquals(List.of(), wrong);
    }

    @Test
    void theRepositoryCopyIsTheServedDocument() throws IOException {
        JsonNode live = OpenApiDocument.live().json();
        String text = OpenApiDocument.JSON.copy().enable(SerializationFeature.INDENT_OUTPUT)
                .writeValueAsString(live) + "\n";
        Path mine = Path.of("target", "openapi", service + ".json");
        Files.createDirectories(mine.getParent());
        Files.writeString(mine, text, StandardCharsets.UTF_8);
        Path repo = committed(service);
        if (Boolean.getBoolean("jobmon.openapi.update")) {
            Files.createDirectories(repo.getParent());
            Files.writeString(repo, text, StandardCharsets.UTF_8);
        }
        JsonNode copy = Files.exists(repo) ? OpenApiDocument.read(repo).json() : null;
        if (!live.equals(copy)) {
            throw new AssertionError("docs/openapi/" + service + ".json is not the served document (differs at "
                    + differences(live, copy == null ? OpenApiDocument.JSON.createObjectNode() : copy, "") + "): copy "
                    + mine + " there (or run this test with -Djobmon.openapi.update=true)");
        }
    }

    /** Where two documents differ, as JSON pointers to the first few differing members. */
    static List<String> differences(JsonNode a, JsonNode b, String at) {
        List<String> out = new ArrayList<>();
        if (a.isObject() && b.isObject()) {
            java.util.Set<String> names = new java.util.TreeSet<>();
            a.fieldNames().forEachRemaining(names::add);
            b.fieldNames().forEachRemaining(names::add);
            for (String n : names) {
                if (!a.path(n).equals(b.path(n)) && out.size() < 10) {
                    out.addAll(differences(a.path(n), b.path(n), at + "/" + n));
                }
            }
            return out.size() > 10 ? out.subList(0, 10) : out;
        }
        return a.equals(b) ? out : List.of(at.isEmpty() ? "/" : at);
    }
}
