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

/** log-service: the job's log lines, user and system, the last {@code tail} of the window (api.md, Logs). */
@RegisterRestClient(configKey = "log-service")
@Path("/api/v1/jobs/{id}/logs")
@Produces(MediaType.APPLICATION_JSON)
public interface LogServiceApi {

    @GET
    JsonNode logs(@PathParam("id") String id, @QueryParam("from") String from, @QueryParam("to") String to,
            @QueryParam("tail") int tail, @HeaderParam("Authorization") String authorization);
}
