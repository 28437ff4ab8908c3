package io.jobmon.diagnosis.rest;

import io.jobmon.contracts.access.CallerFactory;
import io.jobmon.contracts.api.Limits;
import io.jobmon.contracts.api.Page;
import io.jobmon.contracts.i18n.I18n;
import io.jobmon.diagnosis.task.Cursor;
import java.util.Locale;
import io.jobmon.diagnosis.task.DiagnosisTask;
import io.jobmon.diagnosis.task.TaskService;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** A job's diagnoses: ask a new one ({@code POST}, 202 + task) and the history, newest first ({@code GET}). */
@Path("/api/v1/jobs/{id}/diagnoses")
@Tag(name = "diagnoses")
@Produces(MediaType.APPLICATION_JSON)
public class JobDiagnosesResource {

    private final TaskService tasks;
    private final JsonWebToken jwt;
    private final I18n i18n;

    public JobDiagnosesResource(TaskService tasks, JsonWebToken jwt, I18n i18n) {
        this.tasks = tasks;
        this.jwt = jwt;
        this.i18n = i18n;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Ask a diagnosis of the job: window from/to (at most 30 min, default the last 30), metrics, "
            + "hint; the summary and suggestion follow Accept-Language. Poll GET /api/v1/diagnoses/{id}.")
    @APIResponse(responseCode = "202", description = "the task, PENDING", headers = @Header(name = "Location",
            description = "/api/v1/diagnoses/{id}", schema = @Schema(type = SchemaType.STRING)),
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = DiagnosisView.class)))
    public Uni<Response> ask(@PathParam("id") String jobId, TaskRequest body, @Context HttpHeaders headers) {
        TaskRequest r = body == null ? new TaskRequest(null, null, null, null) : body;
        return tasks.ask(CallerFactory.fromToken(jwt), "Bearer " + jwt.getRawToken(), jobId, r.from(), r.to(),
                r.metrics(), r.hint(), locale(headers))
                .map(t -> Response.accepted(DiagnosisView.of(t, locale(headers)))
                        .header(HttpHeaders.LOCATION, "/api/v1/diagnoses/" + t.id()).build());
    }

    @GET
    @Operation(summary = "The job's diagnoses, newest first, automatic ones included; paged by cursor and limit "
            + "(default 50, max 500). 404 when the job is not visible.")
    public Uni<Page<DiagnosisView>> history(@PathParam("id") String jobId,
            @Parameter(description = "nextCursor of the previous page") @QueryParam("cursor") String cursor,
            @Parameter(description = "1..500, default 50", schema = @Schema(type = SchemaType.INTEGER,
                    minimum = "1", maximum = "500", defaultValue = "50")) @QueryParam("limit") String rawLimit,
            @Context HttpHeaders headers) {
        // A String, parsed strictly: a typed @QueryParam would answer limit=abc with a 404.
        int limit = Limits.parse(rawLimit);
        Locale locale = locale(headers);
        Cursor after = Cursor.decode(cursor);
        return tasks.history(CallerFactory.fromToken(jwt), jobId, after, limit + 1).map(rows -> {
            List<DiagnosisTask> page = rows.size() > limit ? rows.subList(0, limit) : rows;
            String next = rows.size() > limit
                    ? new Cursor(page.get(limit - 1).createdAt(), page.get(limit - 1).id()).encode() : null;
            return new Page<>(page.stream().map(t -> DiagnosisView.of(t, locale)).toList(), next);
        });
    }

    private Locale locale(HttpHeaders headers) {
        return i18n.locale(headers.getHeaderString(I18n.ACCEPT_LANGUAGE));
    }
}
