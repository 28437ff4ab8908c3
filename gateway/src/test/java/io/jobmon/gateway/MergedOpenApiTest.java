package io.jobmon.gateway;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.jobmon.testsupport.OpenApiDocument;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The gateway's merged OpenAPI document, made from the services' real documents, is valid OpenAPI 3.1 and covers
 * every path of every service with its answers; the repository keeps it as {@code docs/openapi/jobmon.json}, the
 * file a frontend team generates its client from ({@link TypeScriptClientTest}). Update it with
 * {@code -Djobmon.openapi.update=true} when a service's document changed.
 */
@QuarkusTest
@WithTestResource(OidcWiremockTestResource.class)
@WithTestResource(ServiceDocuments.class)
class MergedOpenApiTest {

    static final Path MERGED = Path.of("..", "docs", "openapi", "jobmon.json");

    static JsonNode merged() {
        return OpenApiDocument.parse(given().get("/openapi").then().statusCode(200).extract().asString());
    }

    @Test
    void theMergedDocumentIsValidOpenApi31() {
        JsonNode doc = merged();
        assertEquals("3.1.0", doc.path("openapi").asText());
        assertEquals(List.of(), OpenApiDocument.violations(doc));
        assertFalse(doc.has("x-jobmon-conflicts"), "components two services define differently: "
                + doc.path("x-jobmon-conflicts"));
    }

    @Test
    void everyPathOfEveryServiceAndOfTheGatewayIsInIt() throws Exception {
        JsonNode doc = merged();
        List<String> absent = new ArrayList<>();
        for (String service : ServiceDocuments.SERVICES.values()) {
            Path file = ServiceDocuments.document(service);
            if (!Files.exists(file)) {
                continue;
            }
            OpenApiDocument.read(file).json().path("paths").fieldNames().forEachRemaining(p -> {
                if (!doc.path("paths").has(p)) {
                    absent.add(service + " " + p);
                }
            });
        }
        assertEquals(List.of(), absent);
        assertTrue(doc.path("paths").has("/api/v1/me"), "the gateway's own /api/v1/me");
        assertEquals("bearer", doc.path("components").path("securitySchemes").path("bearer").path("scheme").asText());
        for (OpenApiDocument.Operation op : new OpenApiDocument(doc).operations()) {
            assertTrue(op.declared().containsAll(List.of("401", "403", "429", "503")), op.name() + " " + op.declared());
        }
    }

    @Test
    void theRepositoryCopyIsTheMergedDocument() throws Exception {
        JsonNode doc = merged();
        String text = OpenApiDocument.JSON.copy().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(doc)
                + "\n";
        Path mine = Path.of("target", "openapi", "jobmon.json");
        Files.createDirectories(mine.getParent());
        Files.writeString(mine, text, StandardCharsets.UTF_8);
        if (Boolean.getBoolean("jobmon.openapi.update")) {
            Files.writeString(MERGED, text, StandardCharsets.UTF_8);
        }
        assertTrue(Files.exists(MERGED), "no docs/openapi/jobmon.json: copy " + mine + " there");
        assertEquals(doc, OpenApiDocument.read(MERGED).json(), "docs/openapi/jobmon.json is not the merged document: "
                + "copy " + mine + " there (or run with -Djobmon.openapi.update=true)");
    }
}
