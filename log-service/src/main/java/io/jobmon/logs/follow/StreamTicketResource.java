package io.jobmon.logs.follow;

import io.jobmon.contracts.access.Caller;
import io.jobmon.contracts.access.CallerFactory;
import io.jobmon.contracts.http.StreamTickets;
import io.jobmon.logs.config.LogsConfig;
import io.jobmon.logs.query.JobLogs;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * {@code POST /api/v1/jobs/{id}/logs/stream-tickets}: a ticket a browser's {@code EventSource} opens the job's follow
 * with, since it cannot send the bearer token (ADR 0027). Same access as the follow: 404 for a job the caller may not
 * see, 410 once its logs expired.
 */
@Path("/api/v1/jobs/{id}/logs/stream-tickets")
@Tag(name = "logs")
public class StreamTicketResource {

    /** What the page gets: the ticket, until when it may be used, and the follow's URL with it. */
    @Schema(name = "StreamTicket")
    public record Ticket(
            @Schema(description = "single use, this job only; pass it as the query parameter ticket") String ticket,
            @Schema(description = "RFC 3339; unused after this, it opens nothing") Instant expiresAt,
            @Schema(description = "the follow with this ticket, relative to the API's origin; add the follow's filters "
                    + "(type, pod, q...) and lastEventId to resume") String url) {
    }

    private final JobLogs jobLogs;
    private final StreamTicketStore tickets;
    private final LogsConfig config;
    private final JsonWebToken token;

    public StreamTicketResource(JobLogs jobLogs, StreamTicketStore tickets, LogsConfig config, JsonWebToken token) {
        this.jobLogs = jobLogs;
        this.tickets = tickets;
        this.config = config;
        this.token = token;
    }

    @POST
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "A stream ticket: opens this job's log follow once, without an Authorization header "
            + "(a browser's EventSource), within follow.ticket-ttl (60 s)")
    @APIResponse(responseCode = "200", description = "the ticket", content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = Ticket.class)))
    @APIResponse(responseCode = "410", description = "the job's logs were removed (retention)")
    public Ticket issue(@PathParam("id") String id) {
        Caller caller = CallerFactory.fromToken(token);
        jobLogs.require(caller, id);
        StreamTicketStore.Issued t = tickets.issue(caller, id, config.follow().ticketTtl()).await().atMost(java.time.Duration.ofSeconds(10));
        return new Ticket(t.ticket(), t.expiresAt(), "/api/v1/jobs/" + URLEncoder.encode(id, StandardCharsets.UTF_8)
                .replace("+", "%20") + "/logs/stream?" + StreamTickets.PARAM + "=" + t.ticket());
    }
}
