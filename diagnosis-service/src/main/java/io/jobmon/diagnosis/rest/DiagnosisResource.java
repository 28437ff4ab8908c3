package io.jobmon.diagnosis.rest;

import io.jobmon.contracts.access.CallerFactory;
import io.jobmon.contracts.i18n.I18n;
import io.jobmon.diagnosis.repository.FeedbackRepository.Feedback;
import io.jobmon.diagnosis.task.FeedbackService;
import io.jobmon.diagnosis.task.TaskService;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import java.util.Locale;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.time.Instant;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** One diagnosis by id, and the feedback on it. */
@Path("/api/v1/diagnoses/{id}")
@Tag(name = "diagnoses")
@Produces(MediaType.APPLICATION_JSON)
public class DiagnosisResource {

    private final TaskService tasks;
    private final FeedbackService feedback;
    private final JsonWebToken jwt;
    private final I18n i18n;

    public DiagnosisResource(TaskService tasks, FeedbackService feedback, JsonWebToken jwt, I18n i18n) {
        this.tasks = tasks;
        this.feedback = feedback;
        this.jwt = jwt;
        this.i18n = i18n;
    }

    @GET
    @Operation(summary = "One diagnosis: status PENDING/RUNNING/DONE/FAILED and, when DONE, the result and the "
            + "missing sources. 404 when unknown or its job is not visible.")
    @APIResponse(responseCode = "200", description = "the diagnosis, its result in the reader's language",
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = DiagnosisView.class)))
    public Uni<DiagnosisView> get(@PathParam("id") String id, @Context HttpHeaders headers) {
        Locale locale = i18n.locale(headers.getHeaderString(I18n.ACCEPT_LANGUAGE));
        return tasks.get(CallerFactory.fromToken(jwt), id).map(t -> DiagnosisView.of(t, locale));
    }

    @POST
    @Path("/feedback")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Judge a DONE diagnosis: {verdict: ACCURATE|POOR, comment}; one verdict per user (a new one "
            + "replaces it).")
    @APIResponse(responseCode = "201", description = "the caller's verdict, as stored", headers = @Header(
            name = "Location", description = "/api/v1/diagnoses/{id}/feedback", schema = @Schema(type = SchemaType.STRING)),
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = FeedbackView.class)))
    @APIResponse(responseCode = "409", description = "the diagnosis is not DONE")
    public Uni<Response> feedback(@PathParam("id") String id, @RequestBody(required = true) FeedbackRequest body) {
        FeedbackRequest r = body == null ? new FeedbackRequest(null, null) : body;
        return feedback.give(CallerFactory.fromToken(jwt), id, r.verdict() == null ? null : r.verdict().name(),
                r.comment()).map(f -> Response.status(201).location(URI.create("/api/v1/diagnoses/" + id + "/feedback"))
                        .entity(view(f)).build());
    }

    private static FeedbackView view(Feedback f) {
        return new FeedbackView(f.diagnosisId(), f.author(), f.verdict(), f.comment(), f.createdAt());
    }

    /** A stored verdict. */
    @Schema(requiredProperties = {"diagnosisId", "author", "verdict", "createdAt"})
    public record FeedbackView(String diagnosisId, String author, String verdict, String comment,
            Instant createdAt) {
    }
}
