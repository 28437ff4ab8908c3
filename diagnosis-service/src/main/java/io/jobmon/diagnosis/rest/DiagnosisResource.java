package io.jobmon.diagnosis.rest;

import io.jobmon.contracts.access.CallerFactory;
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
import java.time.Instant;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** One diagnosis by id, and the feedback on it. */
@Path("/api/v1/diagnoses/{id}")
@Tag(name = "diagnoses")
@Produces(MediaType.APPLICATION_JSON)
public class DiagnosisResource {

    private final TaskService tasks;
    private final FeedbackService feedback;
    private final JsonWebToken jwt;

    public DiagnosisResource(TaskService tasks, FeedbackService feedback, JsonWebToken jwt) {
        this.tasks = tasks;
        this.feedback = feedback;
        this.jwt = jwt;
    }

    @GET
    @Operation(summary = "One diagnosis: status PENDING/RUNNING/DONE/FAILED and, when DONE, the result and the "
            + "missing sources. 404 when unknown or its job is not visible.")
    public Uni<DiagnosisView> get(@PathParam("id") String id, @Context HttpHeaders headers) {
        Locale locale = Languages.of(headers);
        return tasks.get(CallerFactory.fromToken(jwt), id).map(t -> DiagnosisView.of(t, locale));
    }

    @POST
    @Path("/feedback")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Judge a DONE diagnosis: {verdict: ACCURATE|POOR, comment}; one verdict per user (a new one "
            + "replaces it). 201; 400 invalid verdict; 404 not visible; 409 not DONE.")
    public Uni<Response> feedback(@PathParam("id") String id, FeedbackRequest body) {
        FeedbackRequest r = body == null ? new FeedbackRequest(null, null) : body;
        return feedback.give(CallerFactory.fromToken(jwt), id, r.verdict() == null ? null : r.verdict().name(),
                r.comment()).map(f -> Response.status(201).entity(view(f)).build());
    }

    private static FeedbackView view(Feedback f) {
        return new FeedbackView(f.diagnosisId(), f.author(), f.verdict(), f.comment(), f.createdAt());
    }

    /** A stored verdict. */
    public record FeedbackView(String diagnosisId, String author, String verdict, String comment,
            Instant createdAt) {
    }
}
