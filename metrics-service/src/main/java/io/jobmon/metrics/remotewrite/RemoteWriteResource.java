package io.jobmon.metrics.remotewrite;

import io.jobmon.contracts.access.Caller;
import io.jobmon.contracts.access.CallerFactory;
import io.jobmon.contracts.i18n.Text;
import io.jobmon.contracts.problem.ApiException;
import io.jobmon.metrics.config.MetricsConfig;
import io.jobmon.metrics.ingest.IngestMetrics;
import io.jobmon.metrics.ingest.SamplesPublisher;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.mutiny.Multi;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

/**
 * The Prometheus remote-write 1.0 receiver: an existing Prometheus or vmagent forwards here
 * ({@code remote_write: url: .../api/v1/write} with a bearer token of a service account). Service-to-service only:
 * the token must carry the configured role ({@code service}); a user's token gets 403. Answers 204 once Kafka has
 * the samples; a body that is not snappy + protobuf gets a 400 (Prometheus does not retry 4xx); a remote-write
 * 2.0 body a 415.
 */
@Path("/api/v1/write")
@Tag(name = "metrics")
public class RemoteWriteResource {

    static final java.time.Duration PUBLISH_TIMEOUT = java.time.Duration.ofSeconds(60);

    private final SamplesPublisher publisher;
    private final MetricsConfig config;
    private final IngestMetrics metrics;
    private final JsonWebToken token;

    public RemoteWriteResource(SamplesPublisher publisher, MetricsConfig config, IngestMetrics metrics,
            JsonWebToken token) {
        this.publisher = publisher;
        this.config = config;
        this.metrics = metrics;
        this.token = token;
    }

    @POST
    @Blocking
    @Consumes("*/*")
    @Operation(summary = "Prometheus remote-write 1.0 (snappy + protobuf), service-to-service")
    @RequestBody(required = true, description = "a prometheus.WriteRequest, protobuf, snappy block-compressed",
            content = @Content(mediaType = "application/x-protobuf", schema = @Schema(type = SchemaType.STRING,
                    format = "binary")))
    @APIResponse(responseCode = "204", description = "every sample is on jobmon.metrics.samples")
    @APIResponse(responseCode = "415", description = "remote-write 2.0 (io.prometheus.write.v2.Request)")
    public Response write(byte[] body, @HeaderParam("Content-Type") String contentType,
            @HeaderParam("Content-Encoding") String encoding) {
        Caller caller = CallerFactory.fromToken(token);
        if (!caller.roles().contains(config.remoteWrite().role())) {
            throw ApiException.forbidden(Text.of("metrics.remote-write-role", config.remoteWrite().role()));
        }
        if (contentType != null && contentType.contains("io.prometheus.write.v2")) {
            throw ApiException.of(415, "unsupported-media-type", Text.of("metrics.remote-write-v2"));
        }
        if (encoding != null && !encoding.isBlank() && !encoding.trim().equalsIgnoreCase("snappy")) {
            throw ApiException.invalid("Content-Encoding", "field.one-of", "snappy");
        }
        RemoteWriteDecoder.Decoded decoded = RemoteWriteDecoder.decode(body, config.nodeLabels());
        int perRecord = config.remoteWrite().samplesPerRecord();
        // a worker thread (@Blocking) waits for the broker's acknowledgements; the caller learns the outcome
        Multi.createFrom().iterable(decoded.byNode().entrySet()).onItem()
                .transformToUniAndMerge(e -> publisher.publish(e.getKey(), e.getValue(), perRecord))
                .collect().last().await().atMost(PUBLISH_TIMEOUT);
        metrics.remoteWritten(decoded.samples());
        return Response.noContent().build();
    }
}
