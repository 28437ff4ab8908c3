package io.jobmon.gateway.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jobmon.gateway.config.GatewayConfig;
import io.jobmon.gateway.health.Downstreams;
import io.quarkus.smallrye.openapi.runtime.OpenApiDocumentService;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.openapi.runtime.io.Format;
import jakarta.enterprise.inject.Instance;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.jboss.logging.Logger;

/**
 * One OpenAPI document for the whole public API ({@code GET /openapi}, no token): the gateway's own paths and the
 * paths and components of every service, as each describes itself on its management interface
 * ({@link OpenApiMerger}). A service that cannot be reached is listed under {@code x-jobmon-missing} rather than
 * failing the document.
 */
@Path("/openapi")
public class MergedOpenApiResource {

    private static final Logger LOG = Logger.getLogger(MergedOpenApiResource.class);

    private final Downstreams downstreams;
    private final ObjectMapper mapper;
    private final Instance<OpenApiDocumentService> own;
    private final String version;
    private final Duration openapiTimeout;

    public MergedOpenApiResource(Downstreams downstreams, ObjectMapper mapper, Instance<OpenApiDocumentService> own,
            @ConfigProperty(name = "quarkus.application.version", defaultValue = "v1") String version,
            GatewayConfig config) {
        this.downstreams = downstreams;
        this.openapiTimeout = config.openapiTimeout();
        this.mapper = mapper;
        this.own = own;
        this.version = version;
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(hidden = true)
    public Uni<JsonNode> merged() {
        return Multi.createFrom().iterable(downstreams.services().keySet())
                .onItem().transformToUniAndConcatenate(name -> downstreams
                        .get(name, "/q/openapi?format=json", openapiTimeout)
                        .onFailure().retry().withBackOff(Duration.ofMillis(200)).atMost(2)
                        .map(r -> Map.entry(name, r.statusCode() == 200 ? r.body() : ""))
                        .onFailure().recoverWithItem(e -> {
                            LOG.warnf("the merged OpenAPI document lacks %s: %s", name, e.toString());
                            return Map.entry(name, "");
                        }))
                .collect().asList()
                .map(docs -> {
                    OpenApiMerger merger = new OpenApiMerger("jobmon API", version, "The job console's API through "
                            + "the gateway: every path needs a bearer token; errors are application/problem+json; "
                            + "texts follow Accept-Language (zh-CN, en).");
                    JsonNode gateway = ownDocument();
                    if (gateway != null) {
                        merger.add("gateway", gateway);
                    }
                    for (Map.Entry<String, String> d : docs) {
                        JsonNode part = d.getValue().isEmpty() ? null : read(d.getValue());
                        if (part == null) {
                            merger.missing(d.getKey());
                        } else {
                            merger.add(d.getKey(), part);
                        }
                    }
                    return merger.result();
                });
    }

    /** The gateway's own document (/api/v1/me), as smallrye-openapi built it; null when unavailable. */
    private JsonNode ownDocument() {
        if (!own.isResolvable()) {
            return null;
        }
        byte[] json = own.get().getDocument("<default>", Format.JSON);
        return json == null || json.length == 0 ? null : read(new String(json, java.nio.charset.StandardCharsets.UTF_8));
    }

    private JsonNode read(String json) {
        try {
            return mapper.readTree(json);
        } catch (IOException e) {
            return null;
        }
    }
}
