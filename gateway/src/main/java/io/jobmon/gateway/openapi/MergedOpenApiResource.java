package io.jobmon.gateway.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jobmon.gateway.health.Downstreams;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Iterator;
import java.util.Map;

/**
 * One OpenAPI document for the whole public API: the paths and schemas of every service, as each one
 * describes itself at {@code /q/openapi}. A service that cannot be reached is listed under
 * {@code x-jobmon-missing} rather than failing the document.
 */
@Path("/openapi")
public class MergedOpenApiResource {

    private final Downstreams downstreams;
    private final ObjectMapper mapper;

    public MergedOpenApiResource(Downstreams downstreams, ObjectMapper mapper) {
        this.downstreams = downstreams;
        this.mapper = mapper;
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<JsonNode> merged() {
        ObjectNode doc = mapper.createObjectNode().put("openapi", "3.1.0");
        doc.putObject("info").put("title", "jobmon API").put("version", "v1");
        ObjectNode paths = doc.putObject("paths");
        ObjectNode schemas = doc.putObject("components").putObject("schemas");
        doc.withObject("/components").putObject("securitySchemes").putObject("bearer")
                .put("type", "http").put("scheme", "bearer").put("bearerFormat", "JWT");
        var missing = doc.putArray("x-jobmon-missing");
        return Multi.createFrom().iterable(downstreams.services().keySet())
                .onItem().transformToUniAndConcatenate(name -> downstreams.get(name, "/q/openapi?format=json")
                        .map(r -> Map.entry(name, r.statusCode() == 200 ? r.body() : ""))
                        .onFailure().recoverWithItem(Map.entry(name, "")))
                .collect().asList()
                .map(docs -> {
                    for (Map.Entry<String, String> d : docs) {
                        if (d.getValue().isEmpty()) {
                            missing.add(d.getKey());
                            continue;
                        }
                        JsonNode part = read(d.getValue());
                        copy(part.path("paths"), paths);
                        copy(part.path("components").path("schemas"), schemas);
                    }
                    return doc;
                });
    }

    private JsonNode read(String json) {
        try {
            return mapper.readTree(json);
        } catch (java.io.IOException e) {
            return mapper.createObjectNode();
        }
    }

    private static void copy(JsonNode from, ObjectNode to) {
        for (Iterator<Map.Entry<String, JsonNode>> it = from.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            to.set(e.getKey(), e.getValue());
        }
    }
}
