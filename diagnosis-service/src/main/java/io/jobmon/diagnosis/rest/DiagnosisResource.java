package io.jobmon.diagnosis.rest;

import io.jobmon.contracts.access.CallerFactory;
import io.jobmon.contracts.i18n.I18n;
import io.jobmon.contracts.access.Caller;
import io.jobmon.contracts.i18n.Text;
import io.jobmon.contracts.problem.ApiException;
import io.jobmon.diagnosis.config.DiagnosisConfig;
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
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** One diagnosis by id, its metric snapshot, and the feedback on it. */
@Path("/api/v1/diagnoses/{id}")
@Tag(name = "diagnoses")
@Produces(MediaType.APPLICATION_JSON)
public class DiagnosisResource {

    private final TaskService tasks;
    private final FeedbackService feedback;
    private final JsonWebToken jwt;
    private final I18n i18n;
    private final int snapshotPoints;

    public DiagnosisResource(TaskService tasks, FeedbackService feedback, JsonWebToken jwt, I18n i18n,
            DiagnosisConfig config) {
        this.tasks = tasks;
        this.feedback = feedback;
        this.jwt = jwt;
        this.i18n = i18n;
        this.snapshotPoints = config.evidence().snapshotPoints();
    }

    @GET
    @Operation(summary = "One diagnosis: status PENDING/RUNNING/DONE/FAILED and, when DONE, the result and the "
            + "missing sources. 404 when unknown or its job is not visible.")
    @APIResponse(responseCode = "200", description = "the diagnosis, its result in the reader's language",
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = DiagnosisView.class)))
    public Uni<DiagnosisView> get(@PathParam("id") String id, @Context HttpHeaders headers) {
        Locale locale = i18n.locale(headers.getHeaderString(I18n.ACCEPT_LANGUAGE));
        Caller caller = CallerFactory.fromToken(jwt);
        return tasks.get(caller, id).chain(t -> feedback.of(t, caller)
                .map(mine -> DiagnosisView.of(t, locale, FeedbackView.of(mine.orElse(null)))));
    }

    @GET
    @Path("/feedback")
    @Operation(summary = "The caller's verdict on the diagnosis. 404 when they gave none, or the diagnosis is unknown "
            + "or its job not visible.")
    @APIResponse(responseCode = "200", description = "the caller's verdict", content = @Content(
            mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = FeedbackView.class)))
    public Uni<FeedbackView> myFeedback(@PathParam("id") String id) {
        return feedback.mine(CallerFactory.fromToken(jwt), id).map(FeedbackView::of);
    }

    @GET
    @Path("/snapshot")
    @Operation(summary = "The raw performance snapshot: the metric series the diagnosis read (the window at full "
            + "resolution, the run before it at coarse steps), each thinned to at most maxPoints points. 404 when the "
            + "diagnosis is unknown, its job not visible, or it keeps no snapshot (not DONE, or older).")
    @APIResponse(responseCode = "200", description = "the series", content = @Content(
            mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = MetricSnapshotView.class)))
    public Uni<MetricSnapshotView> snapshot(@PathParam("id") String id) {
        return tasks.get(CallerFactory.fromToken(jwt), id).chain(t -> tasks.metricSnapshot(t.id()).map(found ->
                new MetricSnapshotView(t.id(), t.jobId(), new DiagnosisView.WindowView(t.windowFrom(), t.windowTo()),
                        snapshotPoints, MetricSnapshotView.series(found.orElseThrow(() -> ApiException.notFound(
                                Text.of("diagnosis.no-snapshot", id)))))));
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
                r.comment()).map(f -> Response.status(201)
                        .header(HttpHeaders.LOCATION, "/api/v1/diagnoses/" + id + "/feedback")
                        .entity(FeedbackView.of(f)).build());
    }
}
