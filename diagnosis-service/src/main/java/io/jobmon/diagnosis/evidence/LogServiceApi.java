package io.jobmon.diagnosis.evidence;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/**
 * log-service: a job's lines, user or system ({@code type}; null: both), in a time range, the last {@code tail} of them
 * or the first {@code limit} lines holding the keyword {@code q} (log-service README). A null parameter is not sent.
 */
@RegisterRestClient(configKey = "log-service")
@Path("/api/v1/jobs/{id}/logs")
@Produces(MediaType.APPLICATION_JSON)
public interface LogServiceApi {

    @GET
    JsonNode logs(@PathParam("id") String id, @QueryParam("type") String type, @QueryParam("from") String from,
            @QueryParam("to") String to, @QueryParam("q") String keyword, @QueryParam("ignoreCase") String ignoreCase,
            @QueryParam("tail") Integer tail, @QueryParam("limit") Integer limit,
            @HeaderParam("Authorization") String authorization);
}
